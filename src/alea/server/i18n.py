"""Messages the server sends to people, in English and Italian.

Every error carries a stable machine ``code`` (documented in docs/server.md);
the human ``message`` is looked up here in the language the client asked for.
The engine's own explanation of an illegal move (English) travels separately
as ``detail``, so a client can always show *why* a move was refused.
"""

from __future__ import annotations

from typing import Final

LANGUAGES: Final = ("en", "it")
DEFAULT_LANGUAGE: Final = "en"

MESSAGES: Final[dict[str, dict[str, str]]] = {
    "malformed": {
        "en": "That message could not be understood: {detail}",
        "it": "Messaggio non comprensibile: {detail}",
    },
    "unknown_type": {
        "en": "Unknown message type {kind!r}.",
        "it": "Tipo di messaggio sconosciuto {kind!r}.",
    },
    "not_joined": {
        "en": 'Say hello first: send {{"type": "hello"}} with your seat token, if any.',
        "it": 'Prima presentati: invia {{"type": "hello"}} con il gettone del posto, se ce l\'hai.',
    },
    "bad_token": {
        "en": "That seat token is not valid for this game.",
        "it": "Questo gettone non è valido per questa partita.",
    },
    # -- accounts (alea.server.accounts): one message for a wrong name or password alike
    "bad_credentials": {
        "en": "Wrong user name or password.",
        "it": "Nome utente o password errati.",
    },
    "too_many_attempts": {
        "en": "Too many attempts; try again in {retry} seconds.",
        "it": "Troppi tentativi; riprova tra {retry} secondi.",
    },
    "bad_name": {
        "en": "That user name cannot be used: {detail}.",
        "it": "Questo nome utente non si può usare: {detail}.",
    },
    "bad_password": {
        "en": "That password cannot be used: {detail}.",
        "it": "Questa password non si può usare: {detail}.",
    },
    "name_taken": {
        "en": "That user name is taken; choose another.",
        "it": "Questo nome utente è già preso; scegline un altro.",
    },
    "not_signed_in": {
        "en": "Sign in first.",
        "it": "Prima accedi.",
    },
    "csrf": {
        "en": "Request refused: reload the page and try again.",
        "it": "Richiesta rifiutata: ricarica la pagina e riprova.",
    },
    # -- rated tables and profiles (alea.server.ratings)
    "rated_needs_account": {
        "en": "A rated table's seats are for signed-in players: sign in to sit at it.",
        "it": "I posti di un tavolo classificato sono per chi ha un account: accedi per sederti.",
    },
    "rated_one_seat": {
        "en": "At a rated table an account holds one seat only.",
        "it": "A un tavolo classificato un account occupa un solo posto.",
    },
    "rated_not_possible": {
        "en": "This table cannot be rated: {detail}.",
        "it": "Questo tavolo non può essere classificato: {detail}.",
    },
    "no_such_player": {
        "en": "There is no player {name!r}.",
        "it": "Non esiste il giocatore {name!r}.",
    },
    "seat_linked": {
        "en": "That seat already belongs to another account.",
        "it": "Questo posto appartiene già a un altro account.",
    },
    "no_such_game": {
        "en": "There is no game {game!r}.",
        "it": "Non esiste la partita {game!r}.",
    },
    "no_such_seat": {
        "en": "This game has no seat {seat}.",
        "it": "Questa partita non ha il posto {seat}.",
    },
    "spectator": {
        "en": "Spectators cannot act: claim a seat first.",
        "it": "Gli spettatori non possono giocare: prendi prima un posto.",
    },
    "stale_version": {
        "en": "The game has moved on since you chose: look again and choose.",
        "it": "La partita è andata avanti mentre sceglievi: guarda di nuovo e scegli.",
    },
    "not_your_turn": {
        "en": "It is not your turn.",
        "it": "Non è il tuo turno.",
    },
    "illegal_action": {
        "en": "That move is not allowed: {detail}",
        "it": "Mossa non consentita: {detail}",
    },
    "bad_notation": {
        "en": "That is not a move in the game's notation: {detail}",
        "it": "Non è una mossa nella notazione del gioco: {detail}",
    },
    "game_over": {
        "en": "The game is over.",
        "it": "La partita è finita.",
    },
    "not_started": {
        "en": "The game starts when every seat (and the referee's role, if any) is taken.",
        "it": "La partita comincia quando tutti i posti (e il ruolo dell'arbitro, se c'è) "
        "sono occupati.",
    },
    "bad_referee": {
        "en": "Only Dado Romano can have a human referee, who takes no seat: {detail}",
        "it": "Solo Dado Romano può avere un arbitro in carne e ossa, che non occupa un posto: "
        "{detail}",
    },
    "referee_taken": {
        "en": "The referee's role is already taken.",
        "it": "Il ruolo dell'arbitro è già occupato.",
    },
    "not_marking": {
        "en": "No riddle or question is waiting for the referee now.",
        "it": "Nessun indovinello o domanda attende l'arbitro ora.",
    },
    "seat_taken": {
        "en": "Seat {seat} is already taken.",
        "it": "Il posto {seat} è già occupato.",
    },
    "not_human_seat": {
        "en": "Seat {seat} is played by a bot.",
        "it": "Il posto {seat} è giocato da un bot.",
    },
    "not_idle": {
        "en": "Seat {seat} can be handed to a bot only after {seconds} s of silence on its turn.",
        "it": "Il posto {seat} passa a un bot solo dopo {seconds} s di silenzio nel suo turno.",
    },
    "not_allowed": {
        "en": "Not allowed: {detail}",
        "it": "Non consentito: {detail}",
    },
    "bad_request": {
        "en": "Bad request: {detail}",
        "it": "Richiesta non valida: {detail}",
    },
    "bad_time_limit": {
        "en": "The time limit is {low} to {high} minutes, or 0 for none, and only Dado Romano "
        "has one: {detail}",
        "it": "Il tempo limite va da {low} a {high} minuti, oppure 0 per nessun limite, e solo "
        "Dado Romano ne ha uno: {detail}",
    },
    "bad_email": {
        "en": "That e-mail address cannot be used: {detail}",
        "it": "Questo indirizzo e-mail non si può usare: {detail}",
    },
    "bad_time_control": {
        "en": "That time control cannot be used: real time is {rt_low} to {rt_high} seconds "
        "per move with a bank of 0 to {bank_high} seconds, turn-based is {turn_low} hour to "
        "{turn_high} days per move; on timeout a bot moves (bot_move) or takes the seat "
        "(bot_seat). {detail}",
        "it": "Questo controllo del tempo non si può usare: in tempo reale da {rt_low} a "
        "{rt_high} secondi per mossa con una riserva da 0 a {bank_high} secondi, a turni da "
        "{turn_low} ora a {turn_high} giorni per mossa; allo scadere un bot muove (bot_move) "
        "o prende il posto (bot_seat). {detail}",
    },
    "not_finished": {
        "en": "The replay is available when the game is over.",
        "it": "La replica è disponibile a partita finita.",
    },
    "analysis_unavailable": {
        "en": "Games of this kind cannot be analysed.",
        "it": "Le partite di questo gioco non si possono analizzare.",
    },
    "analysis_busy": {
        "en": "Another seat of this game is being analysed; try again when it is done.",
        "it": "Si sta analizzando un altro posto di questa partita; riprova quando ha finito.",
    },
    "hint_unavailable": {
        "en": "Hints are not available in rated games.",
        "it": "I suggerimenti non sono disponibili nelle partite valide per la classifica.",
    },
    # Undo of a seat's own last decision (alea.undo; POST .../undo, WebSocket "undo").
    "undo_nothing": {
        "en": "Nothing to undo: you have made no decision yet.",
        "it": "Niente da annullare: non hai ancora preso nessuna decisione.",
    },
    "undo_chance": {
        "en": "Too late to undo: dice were rolled or a card was drawn after your last move.",
        "it": "Troppo tardi per annullare: dopo la tua ultima mossa sono stati tirati i dadi "
        "o pescata una carta.",
    },
    "undo_others": {
        "en": "Too late to undo: another player has moved since your last move.",
        "it": "Troppo tardi per annullare: un altro giocatore ha mosso dopo la tua ultima mossa.",
    },
    "undo_secret": {
        "en": "A Senate card you kept cannot be taken back: the next player may already see "
        "what it left.",
        "it": "Una carta Senato tenuta non si può riprendere: il giocatore successivo potrebbe "
        "già vedere quelle rimaste.",
    },
    "undo_rated": {
        "en": "Moves cannot be taken back in rated games.",
        "it": "Nelle partite valide per la classifica le mosse non si possono annullare.",
    },
    "projection_unavailable": {
        "en": "Projected scores are not available in {game}.",
        "it": "I punteggi previsti non sono disponibili in {game}.",
    },
    "busy": {
        "en": "Many players are arriving at once; trying again in {retry_after} s.",
        "it": "Molti giocatori stanno arrivando insieme; nuovo tentativo tra {retry_after} s.",
    },
    "storage_error": {
        "en": "The move could not be saved, so it was not made; please try again.",
        "it": "Non è stato possibile salvare la mossa, quindi non è stata fatta; riprova.",
    },
    "database_unavailable": {
        "en": "The server is reconnecting to its database, so nothing was changed; "
        "try again in {retry_after} s.",
        "it": "Il server si sta ricollegando al suo database, quindi non è cambiato nulla; "
        "riprova tra {retry_after} s.",
    },
    "not_found": {
        "en": "There is nothing at this address: {detail}",
        "it": "Non c'è nulla a questo indirizzo: {detail}",
    },
    "method_not_allowed": {
        "en": "This address does not answer that method: {detail}",
        "it": "Questo indirizzo non risponde a quel metodo: {detail}",
    },
    "too_large": {
        "en": "The request is too large: {detail}.",
        "it": "La richiesta è troppo grande: {detail}.",
    },
    "rate_limited": {
        "en": "Too many requests: try again in {retry_after} s.",
        "it": "Troppe richieste: riprova tra {retry_after} s.",
    },
    "http_error": {
        "en": "The request failed: {detail}",
        "it": "La richiesta non è riuscita: {detail}",
    },
    "unavailable": {
        "en": "The server is shutting down.",
        "it": "Il server si sta spegnendo.",
    },
    # Chat and rematch at the table (alea.server.chat, alea.server.rematch).
    "chat_empty": {
        "en": "Type something to say first.",
        "it": "Prima scrivi qualcosa da dire.",
    },
    "chat_too_long": {
        "en": "That message is too long: at most {limit} characters.",
        "it": "Messaggio troppo lungo: al massimo {limit} caratteri.",
    },
    "chat_too_fast": {
        "en": "You are writing too fast: wait {retry_after} s.",
        "it": "Stai scrivendo troppo in fretta: aspetta {retry_after} s.",
    },
    "rematch_too_soon": {
        "en": "A rematch can be proposed when the game is over.",
        "it": "La rivincita si può proporre a partita finita.",
    },
    "no_rematch": {
        "en": "Nobody has proposed a rematch of this game.",
        "it": "Nessuno ha proposto la rivincita di questa partita.",
    },
    "rematch_made": {
        "en": "The rematch has already begun: game {game}.",
        "it": "La rivincita è già cominciata: partita {game}.",
    },
    "not_asked": {
        "en": "Only the players of this game answer its rematch.",
        "it": "Solo i giocatori di questa partita rispondono alla rivincita.",
    },
    # The table-top scorer (POST /api/score, alea.tabletop).
    "unknown_card": {
        "en": "There is no such piece in the box: {detail}",
        "it": "Nella scatola non c'è questo pezzo: {detail}",
    },
    "wrong_section": {
        "en": "That piece is listed under the wrong kind: {detail}",
        "it": "Questo pezzo è elencato nel tipo sbagliato: {detail}",
    },
    "too_many": {
        "en": "The table holds more of a piece than the box: {detail}",
        "it": "Il tavolo ha più copie di un pezzo di quante ne contenga la scatola: {detail}",
    },
    "out_of_range": {
        "en": "That number cannot be: {detail}",
        "it": "Questo numero non è possibile: {detail}",
    },
    "bad_players": {
        "en": "Check the players: {detail}",
        "it": "Controlla i giocatori: {detail}",
    },
    "bad_holdings": {
        "en": "Those holdings cannot be read: {detail}",
        "it": "Questi pezzi non si possono leggere: {detail}",
    },
}


def message(code: str, language: str = DEFAULT_LANGUAGE, **params: object) -> str:
    """The message for ``code`` in ``language`` (English if unknown), with ``params`` filled."""
    table = MESSAGES.get(code)
    if table is None:
        return code
    template = table.get(language) or table[DEFAULT_LANGUAGE]
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


def language(value: object) -> str:
    """A supported language from a client's ``lang`` field (``"it-IT"`` -> ``"it"``)."""
    if isinstance(value, str):
        short = value[:2].lower()
        if short in LANGUAGES:
            return short
    return DEFAULT_LANGUAGE
