package game

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// Tournaments (docs/tournaments.md): round-robin sections a referee
// creates by mail. The referee names the players; each is invited and
// answers join or decline; when every player has answered and at least
// three joined (or when the referee says tournament N start), every game of
// the section starts at once, in the one transaction that handles the
// mail, paired and coloured by the Berger tables (tournament_berger.go).
// Each game is an ordinary game that knows its tournament (gameMeta.Tournament):
// its mails end with the player's standing, and its end (finish) writes its
// result into the tournament's record; when the last game ends every
// participant receives the final standings (tournament_table.go).
//
// A tournament is one record of the service's settings (settingTournament),
// JSON, versioned; the numbers come from settingTournamentSeq.

const (
	settingTournamentSeq = "game.tournament-seq"
	settingTournament    = "game.tournament/"
	tournamentVersion    = 1
	minTournament        = 3
	maxTournament        = 20
	// maxTournamentLine is the longest tournament new line read (twenty
	// addresses with names); other commands keep maxCommandLine.
	maxTournamentLine = 2000
)

// The phases of a tournament.
const (
	tourInvited   = "invited"   // waiting for the players' answers
	tourPlaying   = "playing"   // every game started
	tourOver      = "over"      // every game ended
	tourCancelled = "cancelled" // fewer than three joined
)

// tournament is a round-robin section as the service keeps it.
type tournament struct {
	V       int    `json:"v"`
	ID      uint64 `json:"id"`
	Name    string `json:"name"`
	Variant string `json:"variant"`
	Ruleset string `json:"ruleset"`
	Time    string `json:"time"`
	Double  bool   `json:"double,omitempty"`
	Casual  bool   `json:"casual,omitempty"`
	// Referee is the address of the referee who created it, as it was
	// then; RefereeID is their player, whose current address the
	// tournament's mails go to and whose commands on it are a referee's
	// wherever the account has moved since (address NEW). A record made
	// before RefereeID has 0, and the address is used.
	Referee   string    `json:"referee"`
	RefereeID uint64    `json:"referee_id,omitempty"`
	Phase     string    `json:"phase"`
	Created   time.Time `json:"created"`
	// Starts is the start date the referee set (its 00:00 UTC), zero for
	// none: the sweep starts the games then with those who joined
	// (startDueTournaments).
	Starts  time.Time `json:"starts,omitzero"`
	Started time.Time `json:"started,omitzero"`
	Ended   time.Time `json:"ended,omitzero"`
	// Players are the players in the order the referee named them; once
	// the tournament has started, only those who joined, their index
	// their draw number less one.
	Players []tourPlayer `json:"players"`
	// Games are the section's games, in the order of the Berger table.
	Games []tourGame `json:"games,omitempty"`
}

// tourPlayer is one player of a tournament, known by their player: the
// tournament's mails go to the player's current address, so that a change
// of address (address NEW) takes the tournament with the account.
// Address is the address they were invited at, a copy kept for the
// record; nothing is sent to it.
type tourPlayer struct {
	Player  uint64 `json:"player"`
	Address string `json:"address"`
	// Answer is "" until they answer, then "join" or "decline".
	Answer string `json:"answer,omitempty"`
	// Withdrawn says they withdrew, or were withdrawn, once it had started.
	Withdrawn bool `json:"withdrawn,omitempty"`
}

// tourGame is one game of a section: its game, its round and its
// players' draw indexes; Result is set when it ends, Forfeit when it was
// decided without play.
type tourGame struct {
	Game    uint64 `json:"game"`
	Round   int    `json:"round"`
	White   int    `json:"white"`
	Black   int    `json:"black"`
	Result  string `json:"result,omitempty"`
	Forfeit bool   `json:"forfeit,omitempty"`
}

// tableGames is the section's games as the crosstable reads them.
func (t *tournament) tableGames() []tableGame {
	out := make([]tableGame, len(t.Games))
	for i, g := range t.Games {
		out[i] = tableGame{White: g.White, Black: g.Black, Result: g.Result, Forfeit: g.Forfeit}
	}
	return out
}

// index is a player's draw index in the tournament, or -1.
func (t *tournament) index(player uint64) int {
	for i, p := range t.Players {
		if p.Player == player {
			return i
		}
	}
	return -1
}

// loadTournament reads tournament id.
func loadTournament(tx *store.Tx, id uint64) (*tournament, error) {
	b, err := tx.Setting(fmt.Sprintf("%s%010d", settingTournament, id))
	if err != nil {
		return nil, err
	}
	if b == nil {
		return nil, userf("there is no tournament %d", id)
	}
	t := &tournament{}
	if err := json.Unmarshal(b, t); err != nil {
		return nil, fmt.Errorf("game: tournament %d: %w (%w)", id, err, store.ErrCorrupt)
	}
	if t.V != tournamentVersion {
		return nil, fmt.Errorf("game: tournament %d: version %d is unknown: %w", id, t.V, store.ErrCorrupt)
	}
	return t, nil
}

// saveTournament writes a tournament.
func saveTournament(tx *store.Tx, t *tournament) error {
	t.V = tournamentVersion
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	return tx.PutSetting(fmt.Sprintf("%s%010d", settingTournament, t.ID), b)
}

// tournamentCount is the number of the last tournament created (0: none).
func tournamentCount(tx *store.Tx) (uint64, error) {
	return counter(tx, settingTournamentSeq, "tournament sequence")
}

// tournamentTag finds "Tournament N" in a subject (the invitation's, and
// the replies to it), or "Turnier N" (the German one's).
var tournamentTag = regexp.MustCompile(`(?i)\b(?:tournament|turnier) (\d{1,9})\b`)

// subjectTournament is the tournament a reply's subject names, or 0.
func subjectTournament(subject string) uint64 {
	m := tournamentTag.FindStringSubmatch(subject)
	if m == nil {
		return 0
	}
	n, _ := parseGame(m[1])
	return n
}

// tournamentCmd answers the tournament command family: new, a crosstable,
// start, join and decline.
func (h *handling) tournamentCmd(c Command) error {
	switch c.Arg {
	case "new":
		return h.newTournament(c)
	case "join", "decline":
		return h.tournamentAnswer(c.Game, c.Arg == "join")
	case "start":
		return h.tournamentStartNow(c.Game)
	case "withdraw":
		return h.refereeWithdraw(c)
	}
	return h.tournamentTable(c.Game)
}

// newTournament creates a tournament and invites its players.
func (h *handling) newTournament(c Command) error {
	if !h.s.isReferee(h.from) {
		return userf("only a referee of this service may create a tournament")
	}
	if h.seat != nil {
		return userf("create tournaments from your personal address, not in a game's thread")
	}
	v, ruleset, tc, err := h.challengeTerms(Command{Variant: c.Variant, Rules: c.Rules, Time: c.Time})
	if err != nil {
		return err
	}
	t := &tournament{Name: c.Title, Variant: v.ID(), Ruleset: ruleset, Time: tc.String(), Double: c.Double, Casual: c.Casual,
		Referee: h.from, RefereeID: h.player.ID, Phase: tourInvited, Created: h.now}
	if c.Arg2 != "" {
		day, err := time.Parse(time.DateOnly, c.Arg2)
		if err != nil {
			return userf("%q is not a date: write starts YYYY-MM-DD, e.g. starts %s", c.Arg2, h.now.AddDate(0, 0, 14).Format(time.DateOnly))
		}
		if !day.After(h.now) {
			return userf("the start date %s is not after today: choose a later day", c.Arg2)
		}
		t.Starts = day
	}
	// Every check before anything is written: a refused tournament creates
	// nothing. Each invitation to an address that never wrote takes one of
	// the day's mails to strangers (strangers.go), all of them or none.
	seen := map[string]bool{}
	strangers := 0
	for _, e := range c.Entrants {
		key := mailfmt.Key(e.addr)
		switch {
		case seen[key]:
			return userf("%s is named twice", e.addr)
		case h.s.ours(key):
			return userf("%s is bottlepost's own address: name people", e.addr)
		}
		seen[key] = true
		p, err := h.tx.PlayerByAddress(key)
		switch {
		case errors.Is(err, store.ErrNotFound):
			strangers++
		case err != nil:
			return err
		case !decodePlayerMeta(p).Wrote:
			strangers++
		}
	}
	if ok, err := h.strangerMails(strangers); err != nil || !ok {
		if err == nil {
			err = tournamentStrangersRefused(strangers)
		}
		return err
	}
	for _, e := range c.Entrants {
		p, _, err := h.opponent(Command{Opponent: e.addr, OpponentName: e.name})
		if err != nil {
			return err
		}
		t.Players = append(t.Players, tourPlayer{Player: p.ID, Address: p.Address})
	}
	id, err := nextCounter(h.tx, settingTournamentSeq, "tournament sequence")
	if err != nil {
		return err
	}
	t.ID = id
	if err := saveTournament(h.tx, t); err != nil {
		return err
	}
	var names []string
	for _, tp := range t.Players {
		p, err := h.tx.Player(tp.Player)
		if err != nil {
			return err
		}
		names = append(names, nameAndAddress(p))
		d := h.tourDraft(p.Address)
		d.subject = d.tr("Tournament %d: invitation · %s", t.ID, t.Name)
		d.inReplyTo = ""
		d.notice("%s invites you to play in tournament %d, %s: a %s of %s (%s), %d players.",
			nameAndAddress(h.player), t.ID, t.Name, t.kind(), variantName(t), tc.Describe(), len(t.Players))
		if !decodePlayerMeta(p).Wrote {
			d.notice("bottlepost is a server that referees games of chess and chess variants played by ordinary mail: you send your moves as replies, it checks them, and it mails both players the board after every move. Nothing to install.")
		}
		d.notices = append(d.notices, t.gamesSentence(d.lang, len(t.Players)), t.startSentence(d.lang),
			d.tr("To play, reply to this mail with the single word: join"), d.tr("or, to refuse: decline"))
		d.report = t.playerList(h.tx)
	}
	d := h.tourDraft(h.from)
	d.subject = d.tr("Tournament %d: created · %s", t.ID, t.Name)
	d.notice("Tournament %d, %s, is created: a %s of %s (%s). Each player has been invited: %s.",
		t.ID, t.Name, t.kind(), variantName(t), tc.Describe(), strings.Join(names, ", "))
	d.notices = append(d.notices, t.startSentence(d.lang))
	d.notice("You may start them earlier, with those who have joined, by writing: tournament %d start", t.ID)
	return nil
}

// startSentence says when the games start, in language l.
func (t *tournament) startSentence(l lang.Lang) string {
	if !t.Starts.IsZero() {
		return l.Tr("The games start as soon as every player has answered and at least %d have joined, or on %s with those who have joined by then (if fewer than %d, the tournament is cancelled).",
			minTournament, t.Starts.Format("Mon 2 Jan 2006"), minTournament)
	}
	return l.Tr("The games start as soon as every player has answered and at least %d have joined.", minTournament)
}

// startDueTournaments is the sweep's part (Tick): each tournament whose
// start date has come while it waits for answers starts, each in its own
// transaction, with the players who joined, re-paired for their number;
// one with fewer than three is cancelled, everyone told.
func (s *Service) startDueTournaments(now time.Time) (int, error) {
	var due []uint64
	err := s.st.View(func(tx *store.Tx) error {
		n, err := tournamentCount(tx)
		if err != nil {
			return err
		}
		for id := uint64(1); id <= n; id++ {
			t, err := loadTournament(tx, id)
			if err != nil {
				var ue *userError
				if errors.As(err, &ue) {
					continue
				}
				s.log.Error("sweep: tournament skipped", "tournament", id, "err", err)
				continue
			}
			if t.Phase == tourInvited && !t.Starts.IsZero() && !now.Before(t.Starts) {
				due = append(due, id)
			}
		}
		return nil
	})
	if err != nil {
		return 0, &SystemError{Err: err}
	}
	started := 0
	for _, id := range due {
		err := s.st.Update(func(tx *store.Tx) error {
			h := s.internal(tx, now)
			if err := h.clocks.load(tx); err != nil {
				return err
			}
			t, err := loadTournament(tx, id)
			if err != nil || t.Phase != tourInvited {
				return err
			}
			if joined, _ := t.answers(); joined < minTournament {
				err = h.cancelTournament(t, lang.Msg("on its start date only %d players had joined, and a tournament needs %d", joined, minTournament))
			} else {
				err = h.startTournament(t)
			}
			if err != nil {
				return err
			}
			_, err = h.flush()
			return err
		})
		if err != nil {
			s.log.Error("sweep: tournament not started", "tournament", id, "err", err)
			continue
		}
		started++
	}
	return started, nil
}

// kind is "rated round robin" or "casual (not rated) double round robin"
// …, a message (German's carries its article: "ein gewertetes
// Rundenturnier").
func (t *tournament) kind() lang.Text {
	switch {
	case t.Casual && t.Double:
		return lang.Msg("casual (not rated) double round robin")
	case t.Casual:
		return lang.Msg("casual (not rated) round robin")
	case t.Double:
		return lang.Msg("rated double round robin")
	}
	return lang.Msg("rated round robin")
}

// phaseText is a tournament's phase as a message ("playing").
func phaseText(phase string) lang.Text {
	switch phase {
	case tourInvited:
		return lang.Msg("invited")
	case tourPlaying:
		return lang.Msg("playing")
	case tourOver:
		return lang.Msg("over")
	case tourCancelled:
		return lang.Msg("cancelled")
	}
	return lang.Raw(phase)
}

// gamesSentence says how many games each of n players plays, in language l.
func (t *tournament) gamesSentence(l lang.Lang, n int) string {
	games := n - 1
	if t.Double {
		games *= 2
	}
	return l.Tr("All the games start on the same day, each in its own thread: with %d players, you would play %s at once.", n, gamesIn(l, games))
}

// variantName is the tournament's variant's name, with its ruleset when it
// is not the first.
func variantName(t *tournament) string {
	return poolTitle(poolOf(t.Variant, t.Ruleset))
}

// playerList names the players, numbered in their order.
func (t *tournament) playerList(tx *store.Tx) []string {
	var out []string
	for i, tp := range t.Players {
		name := fmt.Sprintf("player %d", tp.Player)
		if p, err := tx.Player(tp.Player); err == nil {
			name = displayName(p)
		}
		out = append(out, fmt.Sprintf("%2d. %s", i+1, name))
	}
	return out
}

// tournamentAnswer is a player's join or decline.
func (h *handling) tournamentAnswer(id uint64, join bool) error {
	if id == 0 {
		id = subjectTournament(h.in.Subject)
	}
	if id == 0 {
		return userf("say which tournament, e.g. join 3 (or reply to its invitation)")
	}
	t, err := loadTournament(h.tx, id)
	if err != nil {
		return err
	}
	i := t.index(h.player.ID)
	switch {
	case i < 0:
		return userf("you are not invited to tournament %d", id)
	case t.Phase != tourInvited:
		return userf("tournament %d is no longer waiting for answers (it is %s)", id, phaseText(t.Phase))
	}
	t.Players[i].Answer = "decline"
	if join {
		t.Players[i].Answer = "join"
	}
	d := h.draft(h.from, nil, "notice")
	if join {
		d.subject = d.tr("Tournament %d: you joined · %s", t.ID, t.Name)
		d.notice("You joined tournament %d, %s.", t.ID, t.Name)
	} else {
		d.subject = d.tr("Tournament %d: you declined · %s", t.ID, t.Name)
		d.notice("You declined tournament %d, %s.", t.ID, t.Name)
	}
	joined, waiting := t.answers()
	ra, err := t.refereeAddress(h.tx)
	if err != nil {
		return err
	}
	rd := h.tourDraft(ra)
	rd.subject = rd.tr("Tournament %d: answers · %s", t.ID, t.Name)
	if join {
		rd.notice("%s joined tournament %d: %d joined, %d not yet answered.", nameAndAddress(h.player), t.ID, joined, waiting)
	} else {
		rd.notice("%s declined tournament %d: %d joined, %d not yet answered.", nameAndAddress(h.player), t.ID, joined, waiting)
	}
	if waiting > 0 {
		if join {
			d.notice("Its games start when every player has answered.")
		}
		return saveTournament(h.tx, t)
	}
	if joined < minTournament {
		return h.cancelTournament(t, lang.Msg("only %d of the players joined, and a tournament needs %d", joined, minTournament))
	}
	return h.startTournament(t)
}

// answers counts the players who joined and those who have not answered.
func (t *tournament) answers() (joined, waiting int) {
	for _, p := range t.Players {
		switch p.Answer {
		case "join":
			joined++
		case "":
			waiting++
		}
	}
	return joined, waiting
}

// tournamentStartNow is the referee's tournament N start: the games start
// with the players who have joined, if they are at least three.
func (h *handling) tournamentStartNow(id uint64) error {
	t, err := loadTournament(h.tx, id)
	if err != nil {
		return err
	}
	if !h.refereeOf(t) {
		return userf("only a referee may start tournament %d", id)
	}
	switch t.Phase {
	case tourPlaying:
		return userf("tournament %d has already started", id)
	case tourOver:
		return userf("tournament %d has already ended", id)
	case tourCancelled:
		return userf("tournament %d has already been cancelled", id)
	}
	if joined, _ := t.answers(); joined < minTournament {
		return userf("tournament %d cannot start: %d players have joined, and it needs %d", id, joined, minTournament)
	}
	return h.startTournament(t)
}

// cancelTournament ends a tournament that cannot start; everyone invited
// and the referee are told why, each in their language.
func (h *handling) cancelTournament(t *tournament, why lang.Text) error {
	t.Phase, t.Ended = tourCancelled, h.now
	to, err := t.participants(h.tx)
	if err != nil {
		return err
	}
	for _, to := range to {
		d := h.tourDraft(to)
		d.subject = d.tr("Tournament %d: cancelled · %s", t.ID, t.Name)
		d.notice("Tournament %d, %s, is cancelled: %s.", t.ID, t.Name, why)
	}
	return saveTournament(h.tx, t)
}

// participants are the current addresses of the tournament's players,
// then its referee's.
func (t *tournament) participants(tx *store.Tx) ([]string, error) {
	out := make([]string, 0, len(t.Players)+1)
	for _, tp := range t.Players {
		p, err := tx.Player(tp.Player)
		if err != nil {
			return nil, fmt.Errorf("game: tournament %d: player %d: %w", t.ID, tp.Player, err)
		}
		out = append(out, p.Address)
	}
	ra, err := t.refereeAddress(tx)
	return append(out, ra), err
}

// refereeAddress is the current address of the tournament's referee.
func (t *tournament) refereeAddress(tx *store.Tx) (string, error) {
	if t.RefereeID == 0 {
		return t.Referee, nil
	}
	p, err := tx.Player(t.RefereeID)
	if err != nil {
		return "", fmt.Errorf("game: tournament %d: its referee %d: %w", t.ID, t.RefereeID, err)
	}
	return p.Address, nil
}

// refereeOf says whether the sender may act as tournament t's referee: a
// configured referee, or the referee who created it, from wherever their
// account has moved.
func (h *handling) refereeOf(t *tournament) bool {
	return h.s.isReferee(h.from) || h.isOwnReferee(t)
}

// isOwnReferee says whether the sender is the referee who created t.
func (h *handling) isOwnReferee(t *tournament) bool {
	if t.RefereeID != 0 {
		return h.player != nil && h.player.ID == t.RefereeID
	}
	return mailfmt.Key(t.Referee) == mailfmt.Key(h.from)
}

// startTournament starts every game of the section at once, in the
// handling's transaction: the players who joined, in the order the
// referee named them, are the draw numbers 1…n; each game of the Berger
// table is created and started (its start mail to each player, in its own
// thread), and each player gets one mail listing their games. This is the
// one mail whose mails out are bounded by the tournament's size rather
// than by the per-mail limits (docs/service.md): 2 per game and 1 per
// player, 780 for twenty players in a double round robin.
func (h *handling) startTournament(t *tournament) error {
	var players []tourPlayer
	for _, p := range t.Players {
		if p.Answer == "join" {
			players = append(players, p)
		}
	}
	t.Players, t.Phase, t.Started = players, tourPlaying, h.now
	seats := make([]*store.Player, len(players))
	for i, p := range players {
		var err error
		if seats[i], err = h.tx.Player(p.Player); err != nil {
			return err
		}
	}
	tc, err := timing.ParseTimeControl(t.Time)
	if err != nil {
		return fmt.Errorf("game: tournament %d: %w", t.ID, err)
	}
	added := make([][]uint64, len(players))
	for _, pr := range bergerPairings(len(players), t.Double) {
		w, b := pr.White-1, pr.Black-1
		l, err := h.createTournamentGame(t, tc, pr.Round, seats[w], seats[b])
		if err != nil {
			return err
		}
		t.Games = append(t.Games, tourGame{Game: l.g.ID, Round: pr.Round, White: w, Black: b})
		added[w] = append(added[w], l.g.ID)
		added[b] = append(added[b], l.g.ID)
	}
	if err := saveTournament(h.tx, t); err != nil {
		return err
	}
	for i, p := range seats {
		err := h.changePlayer(p.ID, func(m *playerMeta) {
			for _, id := range added[i] {
				m.addGame(id)
			}
		})
		if err != nil {
			return err
		}
	}
	for i, p := range seats {
		d := h.tourDraft(p.Address)
		d.apart = true
		d.subject = d.tr("Tournament %d: your games · %s", t.ID, t.Name)
		d.notice("Tournament %d, %s, has begun: %d players, %s, all started today. Each game has its own thread; reply there to play it. Your games:",
			t.ID, t.Name, len(players), gamesIn(d.lang, len(t.Games)))
		for _, g := range t.Games {
			switch i {
			case g.White:
				d.report = append(d.report, d.tr("Round %2d: game %d, White v %s", g.Round, g.Game, displayName(seats[g.Black])))
			case g.Black:
				d.report = append(d.report, d.tr("Round %2d: game %d, Black v %s", g.Round, g.Game, displayName(seats[g.White])))
			}
		}
	}
	ra, err := t.refereeAddress(h.tx)
	if err != nil {
		return err
	}
	rd := h.tourDraft(ra)
	rd.subject = rd.tr("Tournament %d: started · %s", t.ID, t.Name)
	rd.notice("Tournament %d, %s, has begun: %d players, %s started.", t.ID, t.Name, len(players), gamesIn(rd.lang, len(t.Games)))
	return nil
}

// createTournamentGame creates and starts one game of a tournament, White
// and Black as the table says.
func (h *handling) createTournamentGame(t *tournament, tc timing.TimeControl, round int, white, black *store.Player) (*loaded, error) {
	v, err := variants.Lookup(t.Variant)
	if err != nil {
		return nil, err
	}
	var rnd [8]byte
	if _, err := h.s.rand.Read(rnd[:]); err != nil {
		return nil, err
	}
	seed := binary.BigEndian.Uint64(rnd[:])
	state, err := v.New(rules.Options{Ruleset: t.Ruleset, Seed: seed})
	if err != nil {
		return nil, err
	}
	meta := &gameMeta{Phase: phaseChallenge, Time: tc.String(), DrawOffer: -1, TimedOut: -1, Seed: seed, Casual: t.Casual,
		Tournament: t.ID, Round: round}
	// The start record binds the tournament and the round: the PGN's Event and Round tags.
	l, err := h.storeGame(gameSpec{v: v, ruleset: t.Ruleset, tc: tc, state: state, meta: meta,
		seats: [2]*store.Player{white, black}, tokens: [2]bool{true, true}, starter: 0,
		start: record.Start{Variant: v.ID(), Ruleset: t.Ruleset, Seed: seed, Time: tc.String(), Event: t.Name, Round: fmt.Sprint(round)}})
	if err != nil {
		return nil, err
	}
	if err := h.start(l); err != nil {
		return nil, err
	}
	for side := range 2 {
		d := h.draft(l.seats[side].Address, l, "update")
		d.messageID = meta.Roots[side] // the start mail starts the player's thread
		d.apart, d.inReplyTo = true, ""
		d.notice("Tournament %d, %s: round %d.", t.ID, t.Name, round)
	}
	return l, nil
}

// tournamentTable answers tournament N: the crosstable.
func (h *handling) tournamentTable(id uint64) error {
	t, err := loadTournament(h.tx, id)
	if err != nil {
		return err
	}
	d := h.tourDraft(h.from)
	d.subject = d.tr("Tournament %d: crosstable · %s", t.ID, t.Name)
	d.notices, d.report = t.crosstableMail(h.tx, d.lang)
	return nil
}

// crosstableMail is the heading and the crosstable of a tournament in
// language l (names only: the same for everyone who asks).
func (t *tournament) crosstableMail(tx *store.Tx, l lang.Lang) (head, table []string) {
	switch t.Phase {
	case tourInvited:
		joined, waiting := t.answers()
		return []string{l.Tr("Tournament %d, %s: a %s of %s, waiting for its players' answers (%d joined, %d not yet answered).",
			t.ID, t.Name, t.kind(), variantName(t), joined, waiting)}, t.playerList(tx)
	case tourCancelled:
		return []string{l.Tr("Tournament %d, %s, was cancelled.", t.ID, t.Name)}, nil
	}
	ended := 0
	for _, g := range t.Games {
		if g.Result != "" {
			ended++
		}
	}
	if t.Phase == tourOver {
		head = []string{l.Tr("Tournament %d, %s: a %s of %s, final standings.", t.ID, t.Name, t.kind(), variantName(t))}
	} else {
		head = []string{l.Tr("Tournament %d, %s: a %s of %s, after %d of %d games.", t.ID, t.Name, t.kind(), variantName(t), ended, len(t.Games))}
	}
	return head, crosstable(l, t.names(tx), t.tableGames(), t.Double)
}

// names are the players' shown names, in draw order.
func (t *tournament) names(tx *store.Tx) []string {
	out := make([]string, len(t.Players))
	for i, tp := range t.Players {
		out[i] = fmt.Sprintf("player %d", tp.Player)
		if p, err := tx.Player(tp.Player); err == nil {
			out[i] = displayName(p)
		}
	}
	return out
}

// listTournaments answers tournaments: the sender's, as player or referee.
func (h *handling) listTournaments() error {
	n, err := tournamentCount(h.tx)
	if err != nil {
		return err
	}
	d := h.tourDraft(h.from)
	d.subject = d.tr("bottlepost: your tournaments")
	for id := uint64(1); id <= n; id++ {
		t, err := loadTournament(h.tx, id)
		if err != nil {
			var ue *userError
			if errors.As(err, &ue) {
				continue
			}
			return err
		}
		i := t.index(h.player.ID)
		own := h.isOwnReferee(t)
		if i < 0 && !own {
			continue
		}
		var line string
		switch {
		case i >= 0 && t.Phase != tourInvited && t.Phase != tourCancelled:
			line = d.tr("Tournament %d, %s (%s): %s; %s", t.ID, t.Name, variantName(t), phaseText(t.Phase),
				standingLine(d.lang, d.tr("you"), len(t.Players), t.tableGames(), i))
		case own:
			line = d.tr("Tournament %d, %s (%s): %s; you referee it", t.ID, t.Name, variantName(t), phaseText(t.Phase))
		default:
			line = d.tr("Tournament %d, %s (%s): %s", t.ID, t.Name, variantName(t), phaseText(t.Phase))
		}
		d.report = append(d.report, line)
	}
	if len(d.report) == 0 {
		d.notice("You are in no tournament.")
	} else {
		d.notice("Your tournaments (write tournament N for one's crosstable):")
	}
	return nil
}

// tournamentGameEnded writes the result of a tournament game into its
// tournament, in the transaction that ends it (finish); when it was the
// last, the tournament is over and every player and the referee receive
// the final standings.
func (h *handling) tournamentGameEnded(l *loaded) error {
	if l.meta.Tournament == 0 {
		return nil
	}
	t, err := loadTournament(h.tx, l.meta.Tournament)
	if err != nil {
		return err
	}
	open := 0
	for i := range t.Games {
		g := &t.Games[i]
		if g.Game == l.g.ID {
			g.Result, g.Forfeit = l.g.Result, l.meta.Forfeit
			if g.Result == "" {
				g.Result = "1/2-1/2" // a game of a section always scores
			}
		}
		if g.Result == "" {
			open++
		}
	}
	if open == 0 && t.Phase == tourPlaying {
		t.Phase, t.Ended = tourOver, h.now
		to, err := t.participants(h.tx)
		if err != nil {
			return err
		}
		for _, to := range to {
			d := h.tourDraft(to)
			d.apart = true // not in the answer about the last game
			d.subject = d.tr("Tournament %d: final standings · %s", t.ID, t.Name)
			d.notices, d.report = t.crosstableMail(h.tx, d.lang)
			d.notice("Every game has ended. Thank you for playing.")
		}
	}
	return saveTournament(h.tx, t)
}

// standing is the standings line for a player's mail of a tournament game,
// in the mail's language lg ("" for anyone else, and for a game outside a
// tournament).
func (r *renderer) standing(l *loaded, viewer rules.Viewer, lg lang.Lang) (string, error) {
	side, player := viewer.Side()
	if l.meta.Tournament == 0 || !player {
		return "", nil
	}
	t, ok := r.tournaments[l.meta.Tournament]
	if !ok {
		var err error
		if t, err = loadTournament(r.tx, l.meta.Tournament); err != nil {
			return "", err
		}
		if r.tournaments == nil {
			r.tournaments = map[uint64]*tournament{}
		}
		r.tournaments[t.ID] = t
	}
	i := t.index(l.g.Seats[side].Player)
	if i < 0 || t.Phase == tourInvited {
		return "", nil
	}
	return standingLine(lg, t.Name, len(t.Players), t.tableGames(), i), nil
}

// tournamentHelp is the answer to help tournaments.
const tournamentHelp = `Tournaments

A referee creates a round-robin section by mail to their personal
address (one command; the list of players may go on over the next lines):
    tournament new "Club championship" variant chess time 3d
        players alice@example.org, "Bob Smith" <bob@example.net>, ...
  options: rules NAME, double (each pair meets twice), casual (not rated),
  starts YYYY-MM-DD (that day the games start with those who joined)
Each player (3 to 20) is invited and replies join or decline. When all
have answered and at least 3 joined, or when the referee writes
tournament N start, every game starts at once, paired and coloured by
the Berger tables; each game has its own thread, and each player gets
one mail listing their games.

  tournament N       the crosstable: points, Sonneborn-Berger, wins
  tournaments        your tournaments and your standing in each
  join N             join tournament N (or reply join to the invitation)
  withdraw N         leave tournament N (withdraw N confirm confirms it):
                     each of your unfinished games is lost by forfeit
A referee may also write tournament N withdraw ADDRESS. A forfeit counts
in the crosstable (+ and −) and is not rated.`

// tourDraft is a tournament's mail to an address: its replies go to the
// recipient's personal address, where the tournament commands are read.
func (h *handling) tourDraft(to string) *draft {
	d := h.draft(to, nil, "tournament")
	if d.replyTo == "" {
		d.replyTo = h.s.replyAddress(h.s.accountToken(mailfmt.Key(to)))
	}
	return d
}
