"""PNG charts of a tournament (matplotlib, no display needed).

* ``scores.png``: the final-score distribution of each entrant (box plot with
  the individual games as faint points), to see spread and not only means;
* ``seats.png``: each entrant's win share by seat, with the overall share of
  each seat, to see the first-player edge and that rotation balanced it;
* ``win_share.png``: win share with its 95% interval per entrant.
"""

from __future__ import annotations

from pathlib import Path

from alea.sim.stats import Summary


def write_plots(summary: Summary, directory: str | Path) -> list[Path]:
    """Write the charts into ``directory`` (created if needed); return their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    labels = [e.label for e in summary.entrants]
    written: list[Path] = []

    fig, ax = plt.subplots(figsize=(max(5.0, 1.6 * len(labels)), 4.0))
    data = [list(e.scores) for e in summary.entrants]
    ax.boxplot(data)
    ax.set_xticks(range(1, len(labels) + 1), labels)
    for i, scores in enumerate(data, start=1):
        jitter = [i + 0.18 * ((k * 0.618) % 1 - 0.5) for k in range(len(scores))]
        ax.scatter(jitter, scores, s=4, alpha=0.25)
    ax.set_ylabel("final score")
    ax.set_title(f"Score distribution ({summary.games} games)")
    fig.tight_layout()
    path = out / "scores.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    written.append(path)

    n = summary.tournament.players
    fig, ax = plt.subplots(figsize=(max(5.0, 1.2 * n * len(labels) / 2), 4.0))
    width = 0.8 / (len(labels) + 1)
    for k, entrant in enumerate(summary.entrants):
        xs = [s + k * width for s in range(n)]
        ax.bar(xs, entrant.seat_share, width, label=entrant.label)
    ax.bar(
        [s + len(labels) * width for s in range(n)],
        summary.seat_share,
        width,
        label="seat (all)",
        color="grey",
    )
    ax.set_xticks([s + 0.4 - width / 2 for s in range(n)], [f"seat {s}" for s in range(n)])
    ax.set_ylabel("win share")
    ax.set_title("Win share by seat")
    ax.legend(fontsize="small")
    fig.tight_layout()
    path = out / "seats.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    written.append(path)

    fig, ax = plt.subplots(figsize=(max(5.0, 1.4 * len(labels)), 3.6))
    shares = [e.win_share for e in summary.entrants]
    low = [e.win_share - e.ci[0] for e in summary.entrants]
    high = [e.ci[1] - e.win_share for e in summary.entrants]
    ax.bar(range(len(labels)), shares, yerr=[low, high], capsize=4)
    ax.axhline(1 / n, color="grey", linestyle="--", linewidth=1, label="equal share")
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylabel("win share (95% CI)")
    ax.legend(fontsize="small")
    fig.tight_layout()
    path = out / "win_share.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    written.append(path)
    return written
