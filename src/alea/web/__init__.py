"""The browser client: static HTML, CSS and JavaScript served by :mod:`alea.server`.

No build step: the files under ``static/`` are plain ES modules that the
server sends as they are.
"""
