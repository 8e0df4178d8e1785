package game

import (
	"cmp"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

func TestParseConditional(t *testing.T) {
	tests := []struct {
		name, line string
		want       []CondPair
		err        string
	}{
		{"one pair", "if e5 then Nf3", []CondPair{{"e5", "Nf3"}}, ""},
		{"chained", "if e5 then Nf3 if Nc6 then Bb5", []CondPair{{"e5", "Nf3"}, {"Nc6", "Bb5"}}, ""},
		{"any case, commas", "IF e5 THEN Nf3, If Nc6 Then Bb5;", []CondPair{{"e5", "Nf3"}, {"Nc6", "Bb5"}}, ""},
		{"numbered moves", "if 1... e5 then 2. Nf3", []CondPair{{"e5", "Nf3"}}, ""},
		{"spaced Seachess forms", "if (h) then Ce5 - M", []CondPair{{"(h)", "Ce5 - M"}}, ""},
		{"no then", "if e5 Nf3", nil, "then and your move are missing"},
		{"nothing", "if", nil, "write if THEIRS then MINE"},
		{"no condition", "if then Nf3", nil, "a move is missing after if"},
		{"no answer", "if e5 then", nil, "a move is missing after then"},
		{"answer missing before the next if", "if e5 then if Nc6 then Bb5", nil, "a move is missing after then"},
		{"then twice", "if e5 then Nf3 then Bb5", nil, "comes too early"},
		{"draw is never conditional", "if e5 then draw", nil, "never conditional"},
		{"resign is never conditional", "if Qh4 then resign", nil, "never conditional"},
		{"draw offer", "if e5 then draw offer", nil, "never conditional"},
		{"claim", "if e5 then claim", nil, "never conditional"},
		{"too long a move", "if e5 then " + strings.Repeat("N", 40), nil, "too long"},
		{"too many pairs", strings.Repeat("if e5 then Nf3 ", maxCondPairs+1), nil, "at most"},
		{"the most pairs", strings.TrimSpace(strings.Repeat("if e5 then Nf3 ", maxCondPairs)), nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseConditional(tc.line)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != nil && FormatConditional(got) != FormatConditional(tc.want) {
				t.Errorf("got %q, want %q", FormatConditional(got), FormatConditional(tc.want))
			}
		})
	}
	// A conditional line is a command of its own, not a move or chatter.
	cmds, errs, ignored := ParseCommands([]string{"if e5 then Nf3", "conditionals", "conditionals off", "Conditionals 12", "if e5"})
	if len(cmds) != 4 || cmds[0].Verb != VerbIf || cmds[1].Verb != VerbConditionals || cmds[2].Arg != "off" || cmds[3].Game != 12 ||
		len(errs) != 1 || len(ignored) != 0 {
		t.Errorf("commands %+v, errors %v, ignored %v", cmds, errs, ignored)
	}
}

func FuzzParseConditional(f *testing.F) {
	for _, s := range []string{"if e5 then Nf3", "if e5 then Nf3 if Nc6 then Bb5", "if (h) then Ce5 - M", "IF 1... e5 THEN 2.Nf3,", "if then", "if e5 then draw"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		pairs, err := ParseConditional(line)
		if err != nil {
			return
		}
		if len(pairs) == 0 || len(pairs) > maxCondPairs {
			t.Fatalf("%q: %d pairs", line, len(pairs))
		}
		for _, p := range pairs {
			for _, m := range []string{p.Theirs, p.Mine} {
				if m == "" || len(m) > maxCondMove || strings.TrimSpace(m) != m {
					t.Fatalf("%q: move %q", line, m)
				}
				for _, w := range strings.Fields(m) {
					if kw := strings.ToLower(strings.TrimRight(w, ",;:")); kw == "if" || kw == "then" {
						t.Fatalf("%q: a keyword inside move %q", line, m)
					}
				}
			}
		}
		// What it read, written back, reads the same.
		again, err := ParseConditional(FormatConditional(pairs))
		if err != nil || FormatConditional(again) != FormatConditional(pairs) {
			t.Fatalf("%q: read %q, written back it reads %q, %v", line, FormatConditional(pairs), FormatConditional(again), err)
		}
	})
}

// condLines reads a side's pending lines of a game straight from the store.
func condLines(t *testing.T, f *fixture, game uint64, side int) []string {
	t.Helper()
	var out []string
	err := f.st.View(func(tx *store.Tx) error {
		l, err := load(tx, game)
		if err != nil {
			return err
		}
		h := &handling{tx: tx}
		set, err := h.conds(l, side)
		if err != nil {
			return err
		}
		for _, line := range set.Lines {
			out = append(out, FormatConditional(line))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func loadGame(t *testing.T, f *fixture, id uint64) *loaded {
	t.Helper()
	var l *loaded
	if err := f.st.View(func(tx *store.Tx) error {
		var err error
		l, err = load(tx, id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return l
}

func TestConditionalChess(t *testing.T) {
	f := newFixture(t, Config{})
	pa := f.personal(alice)
	f.send(alice, pa, "new game", "new chess vs "+bob+" as white time 10/50d")
	f.reply(bob, "accept")

	// Conditional lines answer the opponent's next move: not on one's own turn.
	f.reply(alice, "if e5 then Nf3")
	f.mustContain(f.last(alice), "was not registered", "it is your turn now")

	// After a move, in the same mail (before or after it), with a bad line among them.
	f.reply(alice, "if e5 then Nf3 if Nc6 then Bb5", "if d5 then exd5", "e4", "if c5 then Ke3", "if Nf6 then draw", "if e6 then d4")
	m := f.last(alice)
	f.mustContain(m, "Your move e4 was accepted.",
		"Conditional line registered: if e5 then Nf3 if Nc6 then Bb5.",
		"Conditional line registered: if d5 then exd5.",
		"Conditional line registered: if e6 then d4.",
		`The conditional line "if c5 then Ke3" was not registered: your answer to c5 cannot be played: "Ke3":`,
		"Your other conditional lines are kept.",
		"never conditional")
	if !strings.Contains(m.Text, "(FIDE") {
		t.Errorf("the refusal does not cite the ruling:\n%s", m.Text)
	}
	if got := condLines(t, f, 1, 0); len(got) != 3 {
		t.Fatalf("pending lines %q, want 3", got)
	}
	// Bob hears of none of it.
	for _, mb := range f.inbox[bob] {
		if strings.Contains(mb.Text, "onditional") {
			t.Errorf("bob's mail mentions alice's conditional moves:\n%s", mb.Text)
		}
	}
	// Lenient, as ordinary moves; a conflicting line is refused; a repeated one noted.
	f.reply(alice, "if E7-E5 then ng1f3", "if e5 then Nc3")
	f.mustContain(f.last(alice), `"if E7-E5 then ng1f3" is pending already`, "already answers e5 with Nf3")
	// The opponent cannot play what the condition names.
	f.reply(alice, "if e4 then d4")
	f.mustContain(f.last(alice), `Black cannot play "e4"`)
	f.reply(alice, "conditionals")
	f.mustContain(f.last(alice), "Your conditional moves pending in game 1 (3 of at most 20 lines):", "1. if e5 then Nf3 if Nc6 then Bb5", "2. if d5 then exd5", "3. if e6 then d4")

	// Bob answers e5 five hours later: Nf3 is played at once, in the same transaction.
	g := loadGame(t, f, 1)
	aliceClock := g.meta.Clocks[0]
	f.now = f.now.Add(5 * time.Hour)
	res := f.reply(bob, "e5")
	if res.Mails != 2 {
		t.Errorf("bob's move caused %d mails, want 2 (one to each player)", res.Mails)
	}
	mb := f.last(bob)
	f.mustContain(mb, "Your move e5 was accepted.", "White played 2. Nf3.", "White answered at once with a conditional move.", "It is your move.")
	if !strings.Contains(mb.Text, "Nf3") || !strings.Contains(mb.Text, "N") {
		t.Errorf("bob's receipt lacks the reply:\n%s", mb.Text)
	}
	f.mustContain(f.last(alice), "Black played 1... e5.", "Your conditional move 2. Nf3 was played at once in answer to 1... e5.",
		"1. if Nc6 then Bb5", "Waiting for Black's move.")
	g = loadGame(t, f, 1)
	if g.state.Ply() != 3 || int(g.state.ToMove()) != 1 {
		t.Fatalf("after the reply: ply %d, %d to move", g.state.Ply(), g.state.ToMove())
	}
	if g.meta.Clocks[0].Budget != aliceClock.Budget || !g.meta.TurnStart.Equal(f.now) {
		t.Errorf("alice's clock %v (was %v), turn start %v: the reply must use none of her time", g.meta.Clocks[0], aliceClock, g.meta.TurnStart)
	}
	if got := condLines(t, f, 1, 0); len(got) != 1 || got[0] != "if Nc6 then Bb5" {
		t.Errorf("pending after the reply: %q", got)
	}
	// The chain goes on; then any other move drops what is left.
	f.reply(bob, "Nc6")
	f.mustContain(f.last(alice), "Your conditional move 3. Bb5 was played at once in answer to 2... Nc6.", "No conditional lines remain pending.")
	f.reply(alice, "if a6 then Ba4")
	f.mustContain(f.last(alice), "Conditional line registered: if a6 then Ba4.")
	f.reply(bob, "Nf6")
	f.mustContain(f.last(alice), "None of your conditional lines answers 3... Nf6: they were dropped (1 lines).", "It is your move.")
	if got := condLines(t, f, 1, 0); len(got) != 0 {
		t.Errorf("lines left after a move they do not answer: %q", got)
	}

	// conditionals off clears; a draw offer is answered by the player, never by a line.
	f.reply(alice, "O-O", "if Be7 then Re1", "if Bc5 then c3")
	f.reply(alice, "conditionals off")
	f.mustContain(f.last(alice), "Your conditional moves in game 1 are cleared (2 lines).")
	f.reply(alice, "if Be7 then Re1")
	f.reply(bob, "Be7", "draw")
	f.mustContain(f.last(alice), "Your conditional move Re1 was not played: Black offers a draw", "It is your move.")
	f.mustContain(f.last(bob), "Your move Be7 was accepted.", "You offered a draw.")
	if strings.Contains(f.last(bob).Text, "onditional") {
		t.Errorf("bob learns of alice's lines:\n%s", f.last(bob).Text)
	}

	// The audit shows pending lines to the referee; the game's end deletes them.
	f.reply(alice, "Re1", "if O-O then c3")
	f.cfgReferee(ref)
	f.send(ref, f.personal(ref), "audit", "audit 1")
	f.mustContain(f.last(ref), "conditional line of White (pending, sealed): if O-O then c3")
	f.reply(bob, "resign")
	err := f.st.View(func(tx *store.Tx) error {
		v, err := tx.Conditionals(1, store.White)
		if v != nil {
			t.Errorf("conditional moves outlived the game")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.st.Verify(t.Context()); err != nil {
		t.Error(err)
	}
}

// accepted returns the first move of s (in Moves order, after skip of them) that the
// referee accepts and that does not end the game, with the state after it.
func accepted(t *testing.T, s rules.State, skip int) (string, rules.State) {
	t.Helper()
	for _, m := range s.Moves() {
		next, _, err := s.Apply(m)
		if err != nil || next.Outcome().Over() {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		return s.Format(m), next
	}
	t.Fatalf("no move to play at ply %d", s.Ply())
	return "", nil
}

// TestConditionalEveryVariant plays, in every variant without hidden information, a
// chained line through by mail, drops a line the opponent's move does not match, and
// refuses an illegal answer at registration with the variant's own reason and ruling.
func TestConditionalEveryVariant(t *testing.T) {
	for _, v := range variants.All() {
		if v.Hidden() {
			continue // Seachess: TestConditionalSeachess
		}
		for _, ruleset := range v.Rulesets() {
			name := v.ID()
			if len(v.Rulesets()) > 1 {
				name += "/" + ruleset
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				conditionalVariant(t, v, ruleset)
			})
		}
	}
}

func conditionalVariant(t *testing.T, v rules.Variant, ruleset string) {
	f := newFixture(t, Config{})
	f.send(alice, f.personal(alice), "new", "new "+v.ID()+" vs "+bob+" as white rules "+ruleset)
	f.reply(bob, "accept")
	players := [2]string{alice, bob}
	s := loadGame(t, f, 1).state
	owner := int(s.ToMove()) // the side to move first holds the lines
	opp := 1 - owner
	first, s1 := accepted(t, s, 0)
	t1, s2 := accepted(t, s1, 0)
	m1, s3 := accepted(t, s2, 0)
	t2, s4 := accepted(t, s3, 0)
	m2, s5 := accepted(t, s4, 0)
	other, _ := accepted(t, s5, 1) // not the line's condition: drops it
	cond, _ := accepted(t, s5, 0)
	// An answer that cannot be played after t1: a move of the opponent's.
	var bad string
	var why string
	for _, m := range s1.Moves() {
		text := s1.Format(m)
		if _, err := s2.Parse(text); err != nil {
			var me *rules.MoveError
			if errors.As(err, &me) {
				bad, why = text, me.Player()
				break
			}
		}
	}
	if bad == "" {
		t.Fatal("found no illegal answer to try")
	}
	chain := "if " + t1 + " then " + m1 + " if " + t2 + " then " + m2
	f.reply(players[owner], first, chain, "if "+t1+" then "+bad)
	mo := f.last(players[owner])
	f.mustContain(mo, "Conditional line registered: "+chain+".", why, `was not registered: your answer to `+t1+` cannot be played`)

	f.reply(players[opp], t1)
	f.mustContain(f.last(players[opp]), "answered at once with a conditional move.")
	f.mustContain(f.last(players[owner]), "Your conditional move 2. "+m1+" was played at once in answer to")
	f.reply(players[opp], t2)
	f.mustContain(f.last(players[owner]), "Your conditional move 3. "+m2+" was played at once in answer to", "No conditional lines remain pending.")
	if l := loadGame(t, f, 1); l.state.Ply() != 5 || int(l.state.ToMove()) != opp {
		t.Fatalf("after the chain: ply %d, side %d to move", l.state.Ply(), l.state.ToMove())
	}
	f.reply(players[owner], "if "+cond+" then "+m2)
	if strings.Contains(f.last(players[owner]).Text, "was not registered") {
		// m2 need not be playable again: any accepted answer will do.
		l := loadGame(t, f, 1)
		mm, _ := l.state.Parse(cond)
		after, _, _ := l.state.Apply(mm)
		ans, _ := accepted(t, after, 0)
		f.reply(players[owner], "if "+cond+" then "+ans)
	}
	f.mustContain(f.last(players[owner]), "Conditional line registered: if "+cond)
	f.reply(players[opp], other)
	f.mustContain(f.last(players[owner]), "None of your conditional lines answers", "they were dropped (1 lines)", "It is your move.")
	if got := condLines(t, f, 1, owner); len(got) != 0 {
		t.Errorf("lines left: %q", got)
	}
}

// seachessConditional plays a Seachess game by mail in which Black answers a visible move
// with a hidden conditional move (a mine), then, at ply 10, registers lines (none, or
// those given) and White's submarine checks Black's commando ship from under water. It
// returns the fixture and every mail White received.
func seachessConditional(t *testing.T, lines ...string) (*fixture, []*sent) {
	t.Helper()
	return seachessConditionalIn(t, "", lines...)
}

// seachessConditionalIn is seachessConditional with White reading the
// boards in the board format format ("" for the default, the diagram).
func seachessConditionalIn(t *testing.T, format string, lines ...string) (*fixture, []*sent) {
	t.Helper()
	f := newFixture(t, Config{})
	start := []string{"new seachess vs " + bob + " as white"}
	if format != "" {
		start = append([]string{"board format " + format}, start...)
	}
	f.send(alice, f.personal(alice), "new", start...)
	f.reply(bob, "accept")
	f.reply(alice, "Sd1-e3")
	// Black's conditions name what Black will see; the answer may be a hidden move.
	f.reply(bob, "Bg11-g10", "if Se3g4 then Cc12-M if Sg4-h6 then Bc11-c10", "if Se3-g4 then zz9", "if (h) then (h)", "if e4 then Bc11-c10")
	mb := f.last(bob)
	f.mustContain(mb, "Conditional line registered: if Se3g4 then Cc12-M if Sg4-h6 then Bc11-c10.",
		`The conditional line "if Se3-g4 then zz9" was not registered: "zz9": write a move like`, "(S11)",
		`The conditional line "if (h) then (h)" was not registered: your own move must be written out`,
		`The conditional line "if e4 then Bc11-c10" was not registered: "e4": write each move in full`)
	f.reply(alice, "Se3-g4")
	ma := f.last(alice)
	f.mustContain(ma, "Your move Se3-g4 was accepted.", "Black made a hidden move (S10.1)", "Black answered at once with a conditional move.",
		"2... Black's hidden move:", "It is your move.")
	if strings.Contains(ma.Text, "Cc12") || strings.Contains(ma.HTML, "Cc12") {
		t.Fatalf("white's receipt shows Black's hidden conditional move:\n%s", ma.Text)
	}
	f.mustContain(f.last(bob), "Your conditional move 2... Cc12-M was played at once in answer to 2. Se3-g4.", "2... Black's hidden move:")
	err := f.st.View(func(tx *store.Tx) error {
		log, err := tx.Log(1)
		if err != nil {
			return err
		}
		r := log[len(log)-1]
		if !r.Secret || r.Text != "Cc12-M" || r.Opening == nil || !store.VerifyCommitment(1, r.Ply, r.Side, r.Commitment, *r.Opening) {
			t.Errorf("the conditional mine is not sealed and committed like a hidden move: %+v", r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The chain goes on: White's visible move is answered at once by Black's second reply.
	f.reply(alice, "Sg4-h6")
	f.mustContain(f.last(alice), "Black played 3... Bc11-c10.", "Black answered at once with a conditional move.", "It is your move.")
	f.mustContain(f.last(bob), "Your conditional move 3... Bc11-c10 was played at once in answer to 3. Sg4-h6.", "No conditional lines remain pending.")
	for i, m := range []string{"Bc2-c3", "Bd11-d10", "Sh6v-g8"} {
		f.reply([]string{alice, bob}[i%2], m)
	}
	f.reply(bob, append([]string{"Bc10-c9"}, lines...)...)
	if got := condLines(t, f, 1, 1); len(got) != len(lines) {
		t.Fatalf("black holds %q, registered %q:\n%s", got, lines, f.last(bob).Text)
	}
	f.reply(alice, "sSg8-h10") // check by a submarine (S5.8)
	return f, f.inbox[alice]
}

func TestConditionalSeachess(t *testing.T) {
	// A hidden move answered by "(h)": the referee, with full information, refuses the
	// reply (the check stands, S8.3); it is dropped and Black is asked for a move.
	f, _ := seachessConditional(t, "if (h) then Bd10-d9", "if Bc3-c4 then Bd10-d9 if Bc4-c5 then Kg12-g11")
	mb := f.last(bob)
	f.mustContain(mb, "You are in check by a submarine (S5.8).",
		`Your conditional move Bd10-d9, answering 6. (h)+, was not played: "Bd10-d9": the referee refuses it`, "(S8.3)",
		"Your conditional lines were dropped; it is your move.", "It is your move.")
	if got := condLines(t, f, 1, 1); len(got) != 0 {
		t.Errorf("lines left after the refusal: %q", got)
	}
	f.reply(bob, "Kg12-g11")
	f.mustContain(f.last(bob), "Your move Kg12-g11 was accepted.")

	// A visible condition is compared with what Black sees; any hidden move does not match it.
	f, _ = seachessConditional(t, "if Bc3-c4 then Bd10-d9")
	f.mustContain(f.last(bob), "None of your conditional lines answers 6. (h)+: they were dropped (1 lines).")
}

// TestConditionalNonInterference: White's mails are byte-identical (the random digests
// of commitments and chain heads aside) whether Black holds no conditional lines, lines
// that do not match, or a line whose reply the referee refuses; in every board format
// White may read (issue 34).
func TestConditionalNonInterference(t *testing.T) {
	for _, format := range []string{"", boardList, boardBoth} {
		t.Run("board format "+cmp.Or(format, boardDiagram), func(t *testing.T) { conditionalNonInterference(t, format) })
	}
}

func conditionalNonInterference(t *testing.T, format string) {
	runs := [][]string{
		nil,
		{"if Bc3-c4 then Bd10-d9"},
		{"if (h) then Bd10-d9", "if Bc3-c4 then Be11-e10 if Bc4-c5 then Kg12-g11"},
		{"if (h) then Be11-e10"},
	}
	var base []*sent
	for i, lines := range runs {
		_, white := seachessConditionalIn(t, format, lines...)
		if format != "" && !strings.Contains(white[len(white)-1].Text, "White (you): ") {
			t.Fatalf("white's mails are not in the board format %s:\n%s", format, white[len(white)-1].Text)
		}
		if i == 0 {
			base = white
			continue
		}
		if len(white) != len(base) {
			t.Fatalf("run %d: white got %d mails, without lines %d", i, len(white), len(base))
		}
		for j := range white {
			// Every header and both parts, decoded (quoted-printable folds the digests).
			flat := func(m *sent) string {
				return digests.ReplaceAllString(strings.Join([]string{m.To, m.Subject, m.ReplyTo, m.MessageID, m.InReplyTo, m.References, m.Text, m.HTML}, "\n"), "DIGEST")
			}
			x, y := flat(base[j]), flat(white[j])
			if x != y {
				t.Errorf("run %d: white's mail %d depends on Black's conditional lines %q:\n%s\n--- without\n%s", i, j, lines, y, x)
			}
		}
	}
}

// TestConditionalNonInterferenceChess: without hidden information too, Black's mails are
// the same whether White holds no lines or lines Black's move does not match.
func TestConditionalNonInterferenceChess(t *testing.T) {
	play := func(lines ...string) []*sent {
		f := newFixture(t, Config{})
		startChess(t, f)
		f.reply(alice, append([]string{"e4"}, lines...)...)
		if got := condLines(t, f, 1, 0); len(got) != len(lines) {
			t.Fatalf("white holds %q, registered %q", got, lines)
		}
		f.reply(bob, "e5")
		f.reply(alice, "Nf3")
		f.reply(bob, "Nc6")
		return f.inbox[bob]
	}
	base := play()
	for _, lines := range [][]string{{"if d5 then exd5"}, {"if c5 then Nf3 if Nc6 then d4", "if e6 then d4"}} {
		got := play(lines...)
		if len(got) != len(base) {
			t.Fatalf("%q: black got %d mails, without lines %d", lines, len(got), len(base))
		}
		for j := range got {
			if string(got[j].Raw) != string(base[j].Raw) {
				t.Errorf("%q: black's mail %d depends on White's conditional lines:\n%s\n--- without\n%s", lines, j, got[j].Raw, base[j].Raw)
			}
		}
	}
}

// TestConditionalReplyEndsTheGame: a conditional reply that mates gives each player one
// mail, the final one, carrying the move's news too; the lines go with the game.
func TestConditionalReplyEndsTheGame(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f)
	f.reply(alice, "f3")
	f.reply(bob, "e5", "if g4 then Qh4#", "if g3 then Nc6")
	res := f.reply(alice, "g4")
	if res.Mails != 2 {
		t.Errorf("the mating reply caused %d mails, want 2 (one final mail each)", res.Mails)
	}
	f.mustContain(f.last(alice), "Your move g4 was accepted.", "Qh4#", "Black answered at once with a conditional move.",
		"Game over: 0-1, Black wins: checkmate")
	f.mustContain(f.last(bob), "Your conditional move 2... Qh4# was played at once in answer to 2. g4.", "Game over: 0-1, Black wins: checkmate")
	err := f.st.View(func(tx *store.Tx) error {
		v, err := tx.Conditionals(1, store.Black)
		if v != nil {
			t.Errorf("conditional moves outlived the game: %q", v)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestConditionalLinesAnswerEachOther: both sides' lines answer in turn within one mail,
// and each player still gets one mail.
func TestConditionalLinesAnswerEachOther(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f)
	f.reply(bob, "if e4 then e5")
	f.mustContain(f.last(bob), "Conditional line registered: if e4 then e5.")
	res := f.reply(alice, "e4", "if e5 then Nf3")
	if res.Mails != 2 {
		t.Errorf("the mail caused %d mails, want 2", res.Mails)
	}
	f.mustContain(f.last(alice), "Your move e4 was accepted.", "Conditional line registered: if e5 then Nf3.", "Black played 1... e5.",
		"Your conditional move 2. Nf3 was played at once in answer to 1... e5.", "Waiting for Black's move.")
	f.mustContain(f.last(bob), "White played 1. e4.", "Your conditional move 1... e5 was played at once in answer to 1. e4.",
		"White played 2. Nf3.", "It is your move.")
	if l := loadGame(t, f, 1); l.state.Ply() != 3 {
		t.Errorf("ply %d, want 3", l.state.Ply())
	}
}
