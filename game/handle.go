package game

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/store"
)

// handling is the work on one incoming message inside one transaction: it
// checks the sender, runs the commands, and collects what they have to say
// in drafts, which flush hands to a renderer once every command has run.
type handling struct {
	langs   map[string]lang.Lang // the recipients' languages (langOf)
	s       *Service
	tx      *store.Tx
	in      *Incoming
	allow   func() Allowance // the sender's reply allowance (asked once, only when about to answer outside games)
	now     time.Time
	refused string

	from   string        // the sender, normalized
	player *store.Player // the authenticated sender
	pmeta  *playerMeta
	seat   *store.TokenRef // set when the token is a game seat's

	clocks clocks // the outages the handling's games are timed against

	games  map[uint64]*loaded
	drafts map[draftKey]*draft
	order  []draftKey
	dirty  map[uint64]bool // games whose record must be written
	// current is the game the command being run is about, once myGame
	// found it: its answers, refusals included, go in that game's thread.
	current *loaded
	// carried counts the commands a welcome held that this reply carries
	// out; discarded are those it did not confirm (confirm.go).
	carried   int
	discarded []string
	// lastWelcome: the answer of first contact takes a stranger's last
	// slot of the day (welcomeSlot); strangersFull: a mail took the
	// service's last mail to strangers of the day (strangers.go).
	lastWelcome, strangersFull bool

	answers []answer // moves played, in order, that conditional lines may answer

	// withheld are the kinds of the answers the allowance held back, and
	// overLimit, when set, brings the over-limit notice (answers.go).
	withheld  []string
	overLimit *Allowance
}

// newHandling starts the work on one incoming message in a transaction, at now
// (for time-driven work, an empty message); allow is its sender's reply
// allowance.
func (s *Service) newHandling(tx *store.Tx, in *Incoming, allow func() Allowance, now time.Time) *handling {
	return &handling{s: s, tx: tx, in: in, allow: allow, now: now, drafts: map[draftKey]*draft{},
		clocks: clocks{reminderBefore: s.cfg.ReminderBefore}}
}

// userError is a problem with what the player asked, phrased for them.
type userError struct{ msg lang.Text }

// Error is the message in English, the log's language; in writes it in
// the reply's.
func (e *userError) Error() string { return e.in(lang.English) }

// in is the message in a language.
func (e *userError) in(l lang.Lang) string { return e.msg.In(l) }

// playerError is the user error of another package's error a player may
// read (lang.Error: a time control, a variant's name or ruleset), written
// in the reply's language; any other error stands (a system error).
func playerError(err error) error {
	var le *lang.Error
	if errors.As(err, &le) {
		return &userError{msg: le.Msg}
	}
	return err
}

// userf is a user error: a message of the catalogs (lang.Msg).
func userf(format string, args ...any) error { return &userError{msg: lang.Msg(format, args...)} }

func (h *handling) run() error {
	h.from = mailfmt.Key(h.in.From)
	switch {
	case h.from == "" || !strings.Contains(h.from, "@"):
		h.refused = "no sender address"
		return nil
	case h.s.ours(h.from):
		h.refused = "mail from our own address"
		return nil
	}
	if why := h.s.authFailure(h.in); why != "" {
		h.refused = "authentication: " + why
		return h.unverified()
	}
	if gone, err := h.movedAway(); err != nil || gone {
		return err
	}
	if m, name, err := h.movingReply(); err != nil || m != nil {
		if err != nil {
			return err
		}
		return h.confirmMove(m, name)
	}
	token := h.s.tokenOf(h.in.Recipients)
	held, err := h.heldReply()
	if err != nil {
		return err
	}
	if held != nil {
		// A reply to a welcome, from the address it went to: the sender is
		// who they say; the commands the welcome held are carried out if
		// the reply confirms them, else discarded (confirm.go).
		h.settle(held)
		if h.carried == 0 && !hasCommands(h.in.Lines) {
			// Nothing confirmed, nothing asked: the answer says so, and
			// nothing else happens (no account is made).
			h.refused = "a reply to the welcome that did not confirm its commands"
			h.discardedNotice(h.draft(h.from, nil, "notice"))
			return nil
		}
		token = h.s.accountToken(h.from)
	}
	switch {
	case token == "":
		h.refused = "no reply token"
		return h.welcome()
	case strings.HasPrefix(token, accountPrefix):
		if token != h.s.accountToken(h.from) {
			h.refused = "the personal token does not belong to the sender"
			return h.welcome()
		}
		p, err := h.tx.PlayerByAddress(h.from)
		if errors.Is(err, store.ErrNotFound) {
			p = &store.Player{Name: plainName(h.in.FromName), Address: h.from, Created: h.now}
			if err := h.tx.PutPlayer(p); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
		h.player = p
	default:
		ref, err := h.tx.TokenLookup(token)
		if errors.Is(err, store.ErrNotFound) {
			h.refused = "unknown token"
			return h.welcome()
		} else if err != nil {
			return err
		}
		p, err := h.tx.Player(ref.Player)
		if err != nil {
			return err
		}
		if mailfmt.Key(p.Address) != h.from {
			h.refused = "the sender is not the token's player"
			return h.welcome()
		}
		h.player, h.seat = p, &ref
	}
	h.pmeta = decodePlayerMeta(h.player)
	named := h.player.Name == "" && plainName(h.in.FromName) != ""
	if named {
		// Invited without a name, or their mails had none so far: this
		// mail's display name is theirs (displayName).
		h.player.Name = plainName(h.in.FromName)
	}
	if !h.pmeta.Wrote || named {
		h.pmeta.Wrote = true // once: from now on, challenging them invites no stranger
		if err := h.savePlayer(); err != nil {
			return err
		}
	}
	if err := h.clocks.load(h.tx); err != nil {
		return err
	}
	return h.commands()
}

func (h *handling) commands() error {
	cmds, perrs, ignored := ParseCommands(h.in.Lines)
	reply := h.draft(h.from, nil, "notice")
	if h.seat != nil {
		l, err := h.game(h.seat.Game)
		if err != nil {
			return err
		}
		reply = h.draft(h.from, l, "update")
	}
	for i, e := range perrs {
		if i == maxQuoted {
			reply.errors = append(reply.errors, reply.tr("(and %d more lines with mistakes)", len(perrs)-i))
			break
		}
		reply.errors = append(reply.errors, reply.tr("%s (in %q)", e.Reason, excerpt(e.Line)))
	}
	reply.ignored = quoteLines(ignored, reply.lang)
	if h.carried > 0 {
		reply.notice("As you confirmed by replying to the welcome, the commands of your earlier mail were carried out.")
	}
	h.discardedNotice(reply)
	if limit := h.s.cfg.Limits.CommandsPerMail; len(cmds) > limit {
		reply.notices = append(reply.notices, commandsCut(limit, len(cmds), reply.lang))
		cmds = cmds[:limit]
	}
	if len(cmds) == 0 {
		if len(perrs) == 0 {
			reply.notice(`Your mail had no command in it. Write "help" for the list of commands.`)
		}
		reply.board = reply.game != nil
		return nil
	}
	moved := false
	limited := map[string]bool{} // limits already named in the answer
	run := func(c Command, err error) error {
		var ue *userError
		var le *limitError
		switch {
		case errors.As(err, &le):
			if !limited[le.setting] {
				limited[le.setting] = true
				reply.errors = append(reply.errors, le.in(reply.lang))
			}
		case errors.As(err, &ue):
			d := reply
			l := h.current // the game the command turned out to be about
			if l == nil && c.Game != 0 {
				l, _ = h.game(c.Game)
			}
			if l != nil && (reply.game == nil || reply.game.g.ID != l.g.ID) && l.side(h.player.ID) >= 0 {
				// An answer about a game goes in that game's thread, with its board.
				d = h.draft(h.from, l, "update")
			}
			d.errors = append(d.errors, ue.in(d.lang))
			if c.Verb == VerbMove {
				d.refused = c.Arg // a refusal of a move: never withheld (answers.go)
			}
		case err != nil:
			return err
		case c.Verb == VerbMove:
			moved = true
		}
		return nil
	}
	var conditional []Command // registered after the mail's move, whatever their order
	var says []Command        // relayed once every other command has run (messages.go)
	for _, c := range cmds {
		switch {
		case c.Verb == VerbSay:
			says = append(says, c)
			continue
		case c.Verb == VerbMove && moved:
			reply.errors = append(reply.errors, reply.tr("%q was not played: one move per turn, and it is no longer your turn", c.Arg))
			continue
		case c.Verb == VerbIf:
			conditional = append(conditional, c)
			continue
		}
		h.current = nil
		if err := run(c, h.exec(c, reply)); err != nil {
			return err
		}
	}
	for _, c := range conditional {
		if err := run(c, h.registerConditional(c)); err != nil {
			return err
		}
	}
	if err := h.answerConditionals(); err != nil {
		return err
	}
	if len(says) > 0 {
		h.current = nil
		return run(says[0], h.relay(says))
	}
	return nil
}

// listed loads a game named in a list (a player's games, the open
// challenges) for a command about many games: one that cannot be loaded is
// logged and left out, so a damaged game does not break the command.
func (h *handling) listed(id uint64) (l *loaded) {
	defer func() {
		if r := recover(); r != nil { // a damaged page of the game's (bbolt panics)
			h.s.damaged(id, &store.GameError{Game: id, Err: fmt.Errorf("its pages are damaged (bbolt: %v): %w", r, store.ErrCorrupt)})
			l = nil
		}
	}()
	l, err := h.game(id)
	if err != nil {
		var ue *userError
		if !errors.As(err, &ue) {
			h.s.damaged(id, err)
		}
		return nil
	}
	return l
}

// game loads a game once per transaction.
func (h *handling) game(id uint64) (*loaded, error) {
	if l, ok := h.games[id]; ok {
		return l, nil
	}
	l, err := load(h.tx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, userf("there is no game %d", id)
	}
	if err != nil {
		if store.DamagedGame(err) == 0 {
			// Data of this game that does not decode (service data, state, a
			// variant no longer built): the game is damaged, not the service.
			err = &store.GameError{Game: id, Err: fmt.Errorf("%w (%w)", err, store.ErrCorrupt)}
		}
		return nil, err
	}
	if h.games == nil {
		h.games = map[uint64]*loaded{}
	}
	h.games[id] = l
	return l, nil
}

// myGame picks the game a command is about, for a player seated in it: the
// seat's game, the command's game number, the subject's tag, or the
// player's only game.
func (h *handling) myGame(c Command) (*loaded, int, error) {
	id := c.Game
	if h.seat != nil {
		// A seat's address acts on its own game only: a forwarded game mail
		// must not give away a player's other games.
		if id != 0 && id != h.seat.Game {
			return nil, 0, userf("this address belongs to game %d; to act on game %d, reply to a mail of that game (or write from your personal address)", h.seat.Game, id)
		}
		id = h.seat.Game
	}
	if id == 0 {
		if tag, ok := mailfmt.ParseTag(h.in.Subject); ok {
			id = tag
		}
	}
	if id == 0 {
		switch len(h.pmeta.Games) {
		case 0:
			return nil, 0, userf("you have no game in progress; start one with: new VARIANT vs ADDRESS")
		case 1:
			id = h.pmeta.Games[0]
		default:
			return nil, 0, userf("you have several games: say which, e.g. %s %d (your games: %s)", c.Verb, h.pmeta.Games[0], joinIDs(h.pmeta.Games))
		}
	}
	l, err := h.game(id)
	if err != nil {
		return nil, 0, err
	}
	side := l.side(h.player.ID)
	if side < 0 {
		return nil, 0, userf("you are not playing in game %d", id)
	}
	h.current = l
	return l, side, nil
}

func joinIDs(ids []uint64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatUint(id, 10)
	}
	return strings.Join(s, ", ")
}

func (h *handling) exec(c Command, reply *draft) error {
	switch c.Verb {
	case VerbHelp:
		return h.help(c)
	case VerbNew:
		return h.newGame(c)
	case VerbGames:
		return h.listGames()
	case VerbTimezone:
		return h.timezone(c, reply)
	case VerbVacation:
		return h.vacation(c, reply)
	case VerbDigest:
		return h.digest(c, reply)
	case VerbObserve:
		return h.observe(c)
	case VerbAudit:
		return h.audit(c)
	case VerbPGN:
		return h.pgn(c)
	case VerbAdjudicate:
		return h.adjudicate(c)
	case VerbRatings:
		return h.ratings(c)
	case VerbTournament:
		return h.tournamentCmd(c)
	case VerbTournaments:
		return h.listTournaments()
	case VerbJoin:
		return h.tournamentAnswer(c.Game, true)
	case VerbWithdraw:
		return h.withdraw(c)
	case VerbDecline:
		if id := subjectTournament(h.in.Subject); c.Game == 0 && h.seat == nil && id != 0 {
			return h.tournamentAnswer(id, false) // a reply to a tournament's invitation
		}
	case VerbName:
		return h.name(c, reply)
	case VerbMessages:
		return h.messagesSetting(c, reply)
	case VerbNotation:
		return h.setNotation(c, reply)
	case VerbSettings:
		return h.settings(reply)
	case VerbLanguage:
		return h.setLanguage(c, reply)
	case VerbBoard:
		if c.Arg != "" {
			return h.setBoardFormat(c, reply) // board format …; a bare board shows the game's below
		}
	case VerbAddress:
		return h.changeAddress(c, reply)
	}
	l, side, err := h.myGame(c)
	if err != nil {
		return err
	}
	d := h.draft(h.from, l, "update")
	switch c.Verb {
	case VerbAccept, VerbDecline:
		return h.answer(l, side, c.Verb == VerbAccept, d)
	case VerbBoard:
		d.board = true
		return nil
	case VerbHistory:
		hd := h.draft(h.from, l, "history")
		hd.history = true
		return nil
	case VerbMove:
		return h.move(l, side, c.Arg, c.Number, d)
	case VerbClaim:
		return h.claim(l, side)
	case VerbConditionals:
		return h.conditionals(c)
	case VerbDraw:
		return h.draw(l, side, d)
	case VerbResign:
		return h.resign(l, side)
	case VerbTakeback:
		return h.takeback(l, side, c, d)
	}
	return userf("%s is not available here", c.Verb)
}

// notPlaying is the refusal of a command for a game not being played.
func (l *loaded) notPlaying() error {
	switch l.meta.Phase {
	case phaseChallenge, phaseOpen:
		return userf("game %d has not started: the challenge is waiting for an answer", l.g.ID)
	case phaseOver:
		return userf("game %d is over (%s)", l.g.ID, lang.By(func(lg lang.Lang) string { return endedIn(l, lg) }))
	}
	return userf("game %d is not being played", l.g.ID)
}

// endedIn is how a game that is over ended, for a reader of language lg:
// its outcome (outcomeIn), or a challenge declined.
func endedIn(l *loaded, lg lang.Lang) string {
	if l.meta.Outcome == nil && l.meta.Reason == record.DeclinedTermination {
		return lg.Tr("challenge declined")
	}
	return outcomeIn(l, lg)
}

func (h *handling) savePlayer() error {
	h.player.Meta = h.pmeta.encode()
	return h.tx.PutPlayer(h.player)
}

func (h *handling) touch(l *loaded) {
	if h.dirty == nil {
		h.dirty = map[uint64]bool{}
	}
	h.dirty[l.g.ID] = true
}

// save writes a game's state and service data.
func (h *handling) save(l *loaded) error {
	data, err := l.state.MarshalBinary()
	if err != nil {
		return err
	}
	l.g.State = data
	l.g.Meta = l.meta.encode()
	l.g.Updated = h.now
	l.g.Deadlines = h.clocks.deadlines(l)
	return h.tx.PutGame(l.g)
}
