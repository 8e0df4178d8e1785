package seachess

import (
	"strings"

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

// owner phrases a side's possession for viewer v: "your" or "White's".
func owner(v rules.Viewer, side rules.Side) string {
	if v == rules.ViewerOf(side) {
		return "your"
	}
	return sideNames[side] + "'s"
}

// notices are viewer v's sentences about the move (S10): hidden moves only
// as such, every mine strike, surfacing and check.
func notices(v rules.Viewer, s *State, m rules.Move, text string, next *State, fx *effects) []string {
	x := s.pos.toMove
	mover := v == rules.ViewerOf(x)
	var out []string
	add := func(t string) { out = append(out, t) }
	if hidden(m.Kind) {
		switch {
		case mover:
			add("your hidden move is sealed: " + text + " (S10.1)")
		case v == rules.ViewReferee:
			add(sideNames[x] + " made a hidden move: " + text)
		default:
			add(sideNames[x] + " made a hidden move (S10.1)")
		}
	}
	for _, c := range fx.captures {
		what := owner(v, c.piece.side()) + " " + c.piece.kind().String() + " on " + sqName(c.sq)
		switch m.Kind {
		case mvTorpedo:
			add(owner(v, x) + " torpedo boat torpedoed " + what)
		case mvLaunch, mvAirCapture:
			add(owner(v, x) + " aircraft captured " + what)
		case mvSurfaceMove, mvSurfaceHere:
			add(owner(v, x) + " submarine surfaced and captured " + what)
		}
	}
	if m.Kind == mvSurfaceHere && len(fx.captures) == 0 && len(fx.strikes) == 0 {
		add(owner(v, x) + " submarine surfaced on " + sqName(m.To))
	}
	for _, c := range fx.subTaken {
		sub := owner(v, c.piece.side()) + " submerged submarine"
		if v != rules.ViewerOf(c.piece.side()) && v != rules.ViewReferee {
			sub = "a submerged submarine"
		}
		add(owner(v, x) + " destroyer captured " + sub + " on " + sqName(c.sq) + " (S6.1)")
	}
	for _, st := range fx.strikes {
		sq := sqName(st.sq)
		pc := st.piece.kind().String()
		switch {
		case mover:
			add("your " + pc + " struck a mine on " + sq + " (S3.3)")
		case v == rules.ViewerOf(st.owner):
			add(sideNames[x] + "'s " + pc + " struck your mine on " + sq + " (S3.3)")
		case v == rules.ViewReferee:
			add(sideNames[x] + "'s " + pc + " struck " + sideNames[st.owner] + "'s mine on " + sq + " (S3.3)")
		default:
			add("a mine on " + sq + " destroyed " + sideNames[x] + "'s " + pc + " (S3.3)")
		}
	}
	for _, sf := range fx.forced {
		add(surfaceNotice(v, sf, "was forced up by a destroyer", "S6.2"))
	}
	if fx.reloadM != noSq && (mover || v == rules.ViewReferee) {
		add(owner(v, x) + " cruiser on " + sqName(fx.reloadM) + " has reloaded its mine (S3.2)")
	}
	if fx.reloadT != noSq {
		add(owner(v, x) + " torpedo boat on " + sqName(fx.reloadT) + " has reloaded (S4.3)")
	}
	for _, side := range fx.airLost {
		add(owner(v, side) + " aircraft is lost with its carrier (S7.3)")
	}
	for _, sf := range fx.auto {
		add(surfaceNotice(v, sf, "surfaced, its time underwater being up", "S5.6"))
	}
	if next.inCheck {
		y := next.pos.toMove
		visible := next.pos.visibleCheck(y)
		what := "check"
		switch {
		case next.subCheck && visible:
			what = "check, also by a submarine"
		case next.subCheck:
			what = "check by a submarine"
		}
		if v == rules.ViewerOf(y) {
			what = "you are in " + what
		} else if v == rules.ViewPublic || v == rules.ViewReferee {
			what = sideNames[y] + " is in " + what
		}
		if next.subCheck {
			what += " (S5.8)"
		}
		add(what)
	}
	if next.outcome.Over() {
		add("game over: " + next.outcome.Describe(sideNames))
	}
	return out
}

func surfaceNotice(v rules.Viewer, sf surfacing, how, ruling string) string {
	t := owner(v, sf.side) + " submarine on " + sqName(sf.sq) + " " + how
	switch {
	case sf.lost:
		t += ", but could not come up under the commando ship there and is lost"
	case sf.captured != 0:
		t += ", capturing " + owner(v, sf.captured.side()) + " " + sf.captured.kind().String()
	}
	if sf.mine {
		t += ", and was destroyed by a mine there"
	}
	return t + " (" + ruling + ")"
}
