package game

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/store"
)

// condSet is one side's pending conditional lines in a game: private intent, stored sealed
// with the game (store.Tx.Conditionals). The lines answer the opponent's move at ply Ply.
// In games without hidden information the moves are kept in canonical notation, checked
// when registered; in games with hidden information as written (see checkLine).
type condSet struct {
	V     int          `json:"v"`
	Ply   int          `json:"ply"`
	Lines [][]CondPair `json:"lines"`
}

const condSetVersion = 1

// answer is a move played while a mail is handled; the side that did not make it may hold
// conditional lines answering it.
type answer struct {
	l      *loaded
	mover  int
	before rules.State // the position the move was played in
	rep    *rules.Report
}

// maxAnswers bounds how many conditional replies one mail can set off (both sides may hold
// lines, so a reply may answer a reply); each reply uses up a pair of a line.
const maxAnswers = 4 * maxCondPairs

// conds reads side's pending lines in a game (an empty set when there are none).
func (h *handling) conds(l *loaded, side int) (*condSet, error) {
	b, err := h.tx.Conditionals(l.g.ID, store.Side(side))
	if err != nil || b == nil {
		return &condSet{}, err
	}
	set := &condSet{}
	if err := json.Unmarshal(b, set); err != nil {
		return nil, fmt.Errorf("game: game %d: conditional moves of %s: %w", l.g.ID, l.sides()[side], err)
	}
	if set.V != condSetVersion {
		return nil, fmt.Errorf("game: game %d: conditional moves of %s have version %d", l.g.ID, l.sides()[side], set.V)
	}
	return set, nil
}

// saveConds writes side's pending lines (none: deletes them).
func (h *handling) saveConds(l *loaded, side int, set *condSet) error {
	if len(set.Lines) == 0 {
		return h.tx.PutConditionals(l.g.ID, store.Side(side), nil)
	}
	set.V = condSetVersion
	b, err := json.Marshal(set)
	if err != nil {
		return err
	}
	return h.tx.PutConditionals(l.g.ID, store.Side(side), b)
}

// describeConds lists pending lines for the owner's mail (d): a heading, then one notice a
// line, so that each stands on a line of its own in both parts of the mail.
func describeConds(l *loaded, set *condSet, d *draft) []string {
	if len(set.Lines) == 0 {
		return []string{d.tr("You have no conditional moves pending in game %d.", l.g.ID)}
	}
	out := []string{d.tr("Your conditional moves pending in game %d (%d of at most %d lines):", l.g.ID, len(set.Lines), maxCondLines)}
	for i, line := range set.Lines {
		out = append(out, fmt.Sprintf("  %d. %s", i+1, FormatConditional(line)))
	}
	return out
}

// conditionals lists the sender's pending lines of a game, or (off) clears them.
func (h *handling) conditionals(c Command) error {
	l, side, err := h.myGame(c)
	if err != nil {
		return err
	}
	d := h.draft(h.from, l, "update")
	if l.meta.Phase != phasePlay {
		return l.notPlaying()
	}
	set, err := h.conds(l, side)
	if err != nil {
		return err
	}
	if c.Arg == "off" {
		if err := h.saveConds(l, side, &condSet{}); err != nil {
			return err
		}
		d.notice("Your conditional moves in game %d are cleared (%d lines).", l.g.ID, len(set.Lines))
		return nil
	}
	d.notices = append(d.notices, describeConds(l, set, d)...)
	return nil
}

// registerConditional adds a conditional line of the sender's. It runs after the mail's
// other commands, so that a move and lines answering the reply to it can share a mail.
func (h *handling) registerConditional(c Command) error {
	l, side, err := h.myGame(c)
	if err != nil {
		return err
	}
	if l.meta.Phase != phasePlay {
		return l.notPlaying()
	}
	line := FormatConditional(c.Cond)
	opp := 1 - side
	lg := h.langOf(h.from)
	if int(l.state.ToMove()) != opp {
		return userf("The conditional line %q was not registered: it answers %s's next move, and it is your turn now. Send your move first (a move and conditional lines may share one mail).", line, lang.Key(l.sides()[opp]))
	}
	set, err := h.conds(l, side)
	if err != nil {
		return err
	}
	if set.Ply != l.state.Ply() {
		set = &condSet{} // lines for an earlier position: none can apply
	}
	pairs, err := checkLine(l, side, c.Cond, lg)
	if err != nil {
		var ue *userError
		if errors.As(err, &ue) {
			return userf("The conditional line %q was not registered: %s. Your other conditional lines are kept.", line, ue.msg)
		}
		return err
	}
	hidden := l.v.Hidden()
	d := h.draft(h.from, l, "update")
	for i, old := range set.Lines {
		switch rel, at := relate(old, pairs, hidden); rel {
		case condConflict:
			return userf("The conditional line %q was not registered: your pending line %q already answers %s with %s. Write conditionals off to clear your lines and send them again.",
				line, FormatConditional(old), old[at].Theirs, old[at].Mine)
		case condCovered:
			d.notice("The conditional line %q is pending already.", line)
			return nil
		case condExtends:
			set.Lines[i] = pairs
			set.Ply = l.state.Ply()
			if err := h.saveConds(l, side, set); err != nil {
				return err
			}
			d.notice("Conditional line registered: %s (it extends %q).", FormatConditional(pairs), FormatConditional(old))
			return nil
		}
	}
	if len(set.Lines) >= maxCondLines {
		return userf("The conditional line %q was not registered: you have %d lines pending in game %d, the most it takes. Write conditionals off to clear them.", line, len(set.Lines), l.g.ID)
	}
	set.Lines = append(set.Lines, pairs)
	set.Ply = l.state.Ply()
	if err := h.saveConds(l, side, set); err != nil {
		return err
	}
	d.notice("Conditional line registered: %s.", FormatConditional(pairs))
	// One explanation per mail, however many lines it registers, with the final count.
	hint := d.tr("Conditional lines are played at once")
	d.notices = slices.DeleteFunc(d.notices, func(n string) bool { return strings.HasPrefix(n, hint) })
	d.notice("%s when %s's move matches; any other move drops them. You have %d pending in game %d (conditionals lists them, conditionals off clears them).",
		hint, l.sidesIn(d.lang)[opp], len(set.Lines), l.g.ID)
	return nil
}

// checkLine checks a line against the game and returns it as it is kept.
//
// Without hidden information, each move is read in the position it would be played in,
// with the same matcher as an ordinary move: THEIRS must be a move the opponent can play,
// MINE a move the referee accepts after it; both are kept in canonical notation.
//
// With hidden information (Seachess) the position after the opponent's move is not known
// to the owner, and judging in the referee's position would tell the owner about hidden
// pieces. So a condition is "(h)" (any hidden move) or the opponent's visible move as the
// owner's record will show it, and each move is checked only for being readable in the
// variant's notation (against the starting position, which hides nothing); the referee
// judges MINE with full information when it is played.
// The moves are read as a player of language lg writes them (rules.ParseIn).
func checkLine(l *loaded, side int, pairs []CondPair, lg lang.Lang) ([]CondPair, error) {
	writer := string(lg)
	sides := l.sides()
	opp := 1 - side
	if l.v.Hidden() {
		start, err := l.v.New(rules.Options{Ruleset: l.g.Ruleset, Seed: l.meta.Seed})
		if err != nil {
			return nil, err
		}
		// A move must be readable and written in full: a short form ("e4") is matched
		// against the moves of a position, and which move it names there can depend on
		// what the owner cannot see. The starting position hides nothing: a text that
		// reads there as a move other than itself, or as several, is a short form.
		readable := func(text string) error {
			m, err := rules.ParseIn(start, text, writer)
			var me *rules.MoveError
			short := err == nil && condKey(start.Format(m)) != condKey(text)
			switch {
			case errors.As(err, &me) && me.Kind == rules.Unreadable:
				return &userError{msg: me.Text()}
			case short || errors.As(err, &me) && me.Kind == rules.Ambiguous:
				return userf("%q: write each move in full, as the record shows it (such as Be2-e4, Cc1xc7, Sd1v-e3 or O-O): a short form names a move only in a position you cannot fully see (S11)", text)
			}
			return nil
		}
		out := make([]CondPair, len(pairs))
		for i, p := range pairs {
			out[i] = p
			if condKey(p.Theirs) == condKey(condHiddenAny) {
				out[i].Theirs = condHiddenAny
			} else if err := readable(p.Theirs); err != nil {
				return nil, err
			}
			if condKey(p.Mine) == condKey(condHiddenAny) {
				return nil, userf("your own move must be written out, not as %s", condHiddenAny)
			}
			if err := readable(p.Mine); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	explain := func(err error) error {
		var me *rules.MoveError
		if !errors.As(err, &me) {
			return err
		}
		if len(me.Options) > 0 && me.Kind != rules.Ambiguous {
			return userf("%s; legal moves that come close: %s", me.Text(), strings.Join(me.Options, ", "))
		}
		return &userError{msg: me.Text()}
	}
	s := l.state
	out := make([]CondPair, 0, len(pairs))
	after := ""
	for i, p := range pairs {
		t, err := rules.ParseIn(s, p.Theirs, writer)
		var s1 rules.State
		if err == nil {
			s1, _, err = s.Apply(t)
		}
		if err != nil {
			if ue := (*userError)(nil); errors.As(explain(err), &ue) {
				if after == "" {
					return nil, userf("%s cannot play %q: %s", lang.Key(sides[opp]), p.Theirs, ue.msg)
				}
				return nil, userf("%s cannot play %q after %s: %s", lang.Key(sides[opp]), p.Theirs, after, ue.msg)
			}
			return nil, err
		}
		theirs := s.Format(t)
		if int(s1.ToMove()) != side {
			return nil, userf("after %s it is not your turn: a conditional line answers one move with one move", theirs)
		}
		if s1.Outcome().Over() {
			return nil, userf("after %s the game is over (%s): there is nothing to answer", theirs, s1.Outcome().Text(l.sides()))
		}
		m, err := rules.ParseIn(s1, p.Mine, writer)
		var s2 rules.State
		if err == nil {
			s2, _, err = s1.Apply(m)
		}
		if err != nil {
			if ue := (*userError)(nil); errors.As(explain(err), &ue) {
				return nil, userf("your answer to %s cannot be played: %s", theirs, ue.msg)
			}
			return nil, err
		}
		mine := s1.Format(m)
		out = append(out, CondPair{Theirs: theirs, Mine: mine})
		if int(s2.ToMove()) != opp && i < len(pairs)-1 {
			return nil, userf("after %s it is your turn again: a conditional line answers one move with one move", mine)
		}
		if s2.Outcome().Over() && i < len(pairs)-1 {
			return nil, userf("the game ends with %s (%s): nothing can follow it", mine, s2.Outcome().Text(l.sides()))
		}
		after = FormatConditional(out)
		s = s2
	}
	return out, nil
}

// How a new line relates to a pending one.
const (
	condApart    = iota // they part at a move of the opponent's: both can be kept
	condConflict        // they answer the same move differently
	condCovered         // the new line is the pending one or a beginning of it
	condExtends         // the pending line is a beginning of the new one
)

// relate compares a pending line with a new one, pair by pair; at is the pair where they
// conflict. Hidden games compare texts leniently (condKey), others their canonical forms.
func relate(old, cur []CondPair, hidden bool) (rel, at int) {
	same := func(a, b string) bool {
		if hidden {
			return condKey(a) == condKey(b)
		}
		return a == b
	}
	for i := range min(len(old), len(cur)) {
		if !same(old[i].Theirs, cur[i].Theirs) {
			return condApart, i
		}
		if !same(old[i].Mine, cur[i].Mine) {
			return condConflict, i
		}
	}
	if len(cur) <= len(old) {
		return condCovered, 0
	}
	return condExtends, 0
}

// matches reports whether a pending condition names the move a answers. Without hidden
// information the condition is read in the position the move was played in and must be
// that move. With hidden information it is compared with what the owner sees of the move
// (its text and the owner's record line, leniently as the move matcher compares), or is
// "(h)" for any hidden move: nothing the owner cannot see decides.
func (a answer) matches(owner int, theirs string) bool {
	if !a.l.v.Hidden() {
		m, err := a.before.Parse(theirs)
		return err == nil && m == a.rep.Move
	}
	if theirs == condHiddenAny {
		return a.rep.Secret
	}
	if a.rep.Secret {
		return false
	}
	seen := rules.Candidate{Move: a.rep.Move, Forms: []string{a.rep.Text, a.rep.Record[owner]}}
	_, err := rules.Match(theirs, []rules.Candidate{seen}, nil)
	return err == nil
}

// answerConditionals plays the conditional replies to the moves of this mail, in order;
// a reply is itself a move that the other side's lines may answer.
func (h *handling) answerConditionals() error {
	for i := 0; i < len(h.answers) && i < maxAnswers; i++ {
		if err := h.answerConditional(h.answers[i]); err != nil {
			return err
		}
	}
	return nil
}

// answerConditional answers a move with the owner's matching conditional line, if any:
// the reply is played at once, at the move's time, and the rest of the line stays pending;
// lines that do not match are dropped. Nothing the opponent receives depends on the lines
// unless a reply is played.
func (h *handling) answerConditional(a answer) error {
	l := a.l
	owner := 1 - a.mover
	if l.meta.Phase != phasePlay || int(l.state.ToMove()) != owner || l.state.Ply() != a.before.Ply()+1 {
		return nil // the game ended or went on since
	}
	set, err := h.conds(l, owner)
	if err != nil || len(set.Lines) == 0 {
		return err
	}
	od := h.draft(l.seats[owner].Address, l, "update")
	seen := rules.MoveLabel(a.before.Ply()) + " " + a.rep.Record[owner]
	drop := func(why string) error {
		od.notices = append(od.notices, why)
		return h.saveConds(l, owner, &condSet{})
	}
	if set.Ply != a.before.Ply() {
		return drop(od.tr("Your conditional moves were for an earlier position and were dropped (%d lines).", len(set.Lines)))
	}
	var mine string
	var rest [][]CondPair
	for _, line := range set.Lines {
		if !a.matches(owner, line[0].Theirs) {
			continue
		}
		if mine == "" {
			mine = line[0].Mine
		}
		if len(line) > 1 {
			rest = append(rest, line[1:])
		}
	}
	switch {
	case mine == "":
		return drop(od.tr("None of your conditional lines answers %s: they were dropped (%d lines).", seen, len(set.Lines)))
	case l.meta.DrawOffer == a.mover:
		return drop(od.tr("Your conditional move %s was not played: %s offers a draw, which you answer yourself (draw to accept, a move to decline). Your conditional lines were dropped.", mine, l.sidesIn(od.lang)[a.mover]))
	}
	m, err := l.state.Parse(mine)
	var next rules.State
	var rep *rules.Report
	if err == nil {
		next, rep, err = l.state.Apply(m)
	}
	if err != nil {
		var me *rules.MoveError
		if !errors.As(err, &me) {
			return err
		}
		// The referee refused it (or, in a hidden game, it is not a move here): the player
		// is asked for a move as usual, and the opponent hears nothing of it.
		return drop(od.tr("Your conditional move %s, answering %s, was not played: %s. Your conditional lines were dropped; it is your move.", mine, seen, me.Text()))
	}
	left := &condSet{Ply: next.Ply(), Lines: rest}
	if err := h.saveConds(l, owner, left); err != nil {
		return err
	}
	yours := lang.Msg("Your conditional move %s %s was played at once in answer to %s.", rules.MoveLabel(l.state.Ply()), rep.Text, seen)
	if len(rest) == 0 {
		yours = lang.Msg("Your conditional move %s %s was played at once in answer to %s. No conditional lines remain pending.", rules.MoveLabel(l.state.Ply()), rep.Text, seen)
	}
	theirs := lang.Msg("%s answered at once with a conditional move.", lang.Key(l.sides()[owner]))
	if err := h.play(l, owner, rep, next, yours, theirs); err != nil {
		return err
	}
	if l.meta.Phase == phaseOver {
		h.foldUpdates(l)
		return nil
	}
	if len(rest) > 0 {
		od.notices = append(od.notices, describeConds(l, left, od)...)
	}
	return nil
}

// foldUpdates puts what this mail's update drafts of a game say into its final drafts,
// so that a conditional reply that ends the game gives each player one mail, not two.
func (h *handling) foldUpdates(l *loaded) {
	for _, k := range h.order {
		if k.game != l.g.ID || k.kind != "update" {
			continue
		}
		u := h.drafts[k]
		f, ok := h.drafts[draftKey{k.to, k.game, "final"}]
		if !ok {
			continue
		}
		f.notices = append(append([]string(nil), u.notices...), f.notices...)
		f.errors = append(append([]string(nil), u.errors...), f.errors...)
		f.ignored = append(append([]string(nil), u.ignored...), f.ignored...)
		f.commitments = append(append([]string(nil), u.commitments...), f.commitments...)
		u.notices, u.errors, u.ignored, u.commitments = nil, nil, nil, nil
		u.board, u.lastMoves = false, false
	}
}
