package seachess

import (
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

var sideNames = [2]string{"White", "Black"}

// report writes what each viewer learns of m, played from s to next with
// effects fx (S10): the records of S11 and notices phrased for players.
func (s *State) report(m rules.Move, next *State, fx *effects) *rules.Report {
	x := s.pos.toMove
	text := s.Format(m)
	secret := hidden(m.Kind)
	rep := &rules.Report{Move: m, Mover: x, Text: text, Secret: secret}

	// The records (S11): what happened, then what the opponent may read.
	var eff, pubEff strings.Builder
	for range fx.subTaken {
		eff.WriteString("xsS") // S10.2: public
	}
	for _, st := range fx.strikes {
		if st.sq == m.To && m.Kind != mvCastleT && m.Kind != mvCastleC {
			eff.WriteString("-Mx")
		} else {
			eff.WriteString("-Mx(" + sqName(st.sq) + ")")
		}
		pubEff.WriteString("-Mx(" + sqName(st.sq) + ")")
	}
	for _, sf := range fx.forced {
		t := ">" + surfaceText(sf)
		eff.WriteString(t)
		pubEff.WriteString(t)
	}
	reloadT := ""
	if fx.reloadT != noSq {
		reloadT = "<T"
	}
	tail := ""
	for _, sf := range fx.auto {
		tail += "; sS" + surfaceText(sf)
	}
	if next.inCheck {
		tail += "+"
	}
	full := text + eff.String()
	if fx.reloadM != noSq {
		full += "<M"
	}
	full += reloadT
	public := text + eff.String() + reloadT // S10.3: no <M for the opponent
	if secret {
		full += " (h)"
		public = "(h)" + pubEff.String()
	}
	for v := range rules.NumViewers {
		if v == rules.ViewReferee || v == rules.ViewerOf(x) {
			rep.Record[v] = full + tail
		} else {
			rep.Record[v] = public + tail
		}
	}

	for v := range rules.NumViewers {
		rep.Notices[v] = notices(v, s, m, text, next, fx)
	}
	return rep
}

// surfaceText is a surfacing's record: "f6^xf6", "f6^", "g1^(lost)",
// "f6^-Mx".
func surfaceText(sf surfacing) string {
	sq := sqName(sf.sq)
	t := sq + "^"
	if sf.captured != 0 {
		t += "x" + sq
	}
	if sf.lost {
		t += "(lost)"
	}
	if sf.mine {
		t += "-Mx"
	}
	return t
}

// The words of Seachess's notices: its kinds of piece and what else a
// notice names.
var _ = lang.Keys("boat", "cruiser", "torpedo boat", "submarine", "destroyer", "aircraft carrier", "commando ship",
	"aircraft", "submerged submarine")

// owner names a side's piece kind for viewer v: "your cruiser" or
// "White's cruiser".
func owner(v rules.Viewer, side rules.Side, kind string) lang.Text {
	if v == rules.ViewerOf(side) {
		return lang.Msg("your %s", rules.Word(kind))
	}
	return lang.Msg("%s's %s", rules.Word(sideNames[side]), rules.Word(kind))
}

// notices are viewer v's sentences about the move (S10): hidden moves only
// as such, every mine strike, surfacing and check.
func notices(v rules.Viewer, s *State, m rules.Move, text string, next *State, fx *effects) []lang.Text {
	x := s.pos.toMove
	mover := v == rules.ViewerOf(x)
	side := rules.Word(sideNames[x])
	var out []lang.Text
	add := func(t lang.Text) { out = append(out, t) }
	if hidden(m.Kind) {
		switch {
		case mover:
			add(lang.Msg("your hidden move is sealed: %s (S10.1)", text))
		case v == rules.ViewReferee:
			add(lang.Msg("%s made a hidden move: %s", side, text))
		default:
			add(lang.Msg("%s made a hidden move (S10.1)", side))
		}
	}
	for _, c := range fx.captures {
		what := owner(v, c.piece.side(), c.piece.kind().String())
		sq := sqName(c.sq)
		switch m.Kind {
		case mvTorpedo:
			add(lang.Msg("%s torpedoed %s on %s", owner(v, x, "torpedo boat"), what, sq))
		case mvLaunch, mvAirCapture:
			add(lang.Msg("%s captured %s on %s", owner(v, x, "aircraft"), what, sq))
		case mvSurfaceMove, mvSurfaceHere:
			add(lang.Msg("%s surfaced and captured %s on %s", owner(v, x, "submarine"), what, sq))
		}
	}
	if m.Kind == mvSurfaceHere && len(fx.captures) == 0 && len(fx.strikes) == 0 {
		add(lang.Msg("%s surfaced on %s", owner(v, x, "submarine"), sqName(m.To)))
	}
	for _, c := range fx.subTaken {
		sub := owner(v, c.piece.side(), "submerged submarine")
		if v != rules.ViewerOf(c.piece.side()) && v != rules.ViewReferee {
			sub = lang.Msg("a submerged submarine")
		}
		add(lang.Msg("%s captured %s on %s (S6.1)", owner(v, x, "destroyer"), sub, sqName(c.sq)))
	}
	for _, st := range fx.strikes {
		sq := sqName(st.sq)
		pc := owner(v, x, st.piece.kind().String())
		switch {
		case mover:
			add(lang.Msg("%s struck a mine on %s (S3.3)", pc, sq))
		case v == rules.ViewerOf(st.owner):
			add(lang.Msg("%s struck your mine on %s (S3.3)", pc, sq))
		case v == rules.ViewReferee:
			add(lang.Msg("%s struck %s's mine on %s (S3.3)", pc, rules.Word(sideNames[st.owner]), sq))
		default:
			add(lang.Msg("a mine on %s destroyed %s (S3.3)", sq, pc))
		}
	}
	for _, sf := range fx.forced {
		add(surfaceNotice(v, sf, false))
	}
	if fx.reloadM != noSq && (mover || v == rules.ViewReferee) {
		add(lang.Msg("%s on %s has reloaded its mine (S3.2)", owner(v, x, "cruiser"), sqName(fx.reloadM)))
	}
	if fx.reloadT != noSq {
		add(lang.Msg("%s on %s has reloaded (S4.3)", owner(v, x, "torpedo boat"), sqName(fx.reloadT)))
	}
	for _, side := range fx.airLost {
		add(lang.Msg("%s is lost with its carrier (S7.3)", owner(v, side, "aircraft")))
	}
	for _, sf := range fx.auto {
		add(surfaceNotice(v, sf, true))
	}
	if next.inCheck {
		add(checkNotice(v, next))
	}
	if next.outcome.Over() {
		add(lang.Msg("game over: %s", next.outcome.Text(sideNames)))
	}
	return out
}

// checkNotice tells viewer v that the side to move in next is in check:
// "you" to that side, its name to the referee and the public, and only
// "check" to the other player, and by a submarine only to those who may
// know it (S5.8).
func checkNotice(v rules.Viewer, next *State) lang.Text {
	y := next.pos.toMove
	visible := next.pos.visibleCheck(y)
	who := rules.Word(sideNames[y])
	sub := next.subCheck && !visible
	also := next.subCheck && visible
	switch {
	case v == rules.ViewerOf(y) && also:
		return lang.Msg("you are in check, also by a submarine (S5.8)")
	case v == rules.ViewerOf(y) && sub:
		return lang.Msg("you are in check by a submarine (S5.8)")
	case v == rules.ViewerOf(y):
		return lang.Msg("you are in check")
	case (v == rules.ViewPublic || v == rules.ViewReferee) && also:
		return lang.Msg("%s is in check, also by a submarine (S5.8)", who)
	case (v == rules.ViewPublic || v == rules.ViewReferee) && sub:
		return lang.Msg("%s is in check by a submarine (S5.8)", who)
	case v == rules.ViewPublic || v == rules.ViewReferee:
		return lang.Msg("%s is in check", who)
	case also:
		return lang.Msg("check, also by a submarine (S5.8)")
	case sub:
		return lang.Msg("check by a submarine (S5.8)")
	default:
		return lang.Msg("check")
	}
}

// surfaceNotice tells of a submarine surfacing: forced up by a destroyer
// (S6.2) or, auto, its time underwater being up (S5.6).
func surfaceNotice(v rules.Viewer, sf surfacing, auto bool) lang.Text {
	var how, mine lang.Text
	switch {
	case sf.lost:
		how = lang.Msg(", but could not come up under the commando ship there and is lost")
	case sf.captured != 0:
		how = lang.Msg(", capturing %s", owner(v, sf.captured.side(), sf.captured.kind().String()))
	default:
		how = lang.Raw("")
	}
	mine = lang.Raw("")
	if sf.mine {
		mine = lang.Msg(", and was destroyed by a mine there")
	}
	sub := owner(v, sf.side, "submarine")
	if auto {
		return lang.Msg("%s on %s surfaced, its time underwater being up%s%s (S5.6)", sub, sqName(sf.sq), how, mine)
	}
	return lang.Msg("%s on %s was forced up by a destroyer%s%s (S6.2)", sub, sqName(sf.sq), how, mine)
}
