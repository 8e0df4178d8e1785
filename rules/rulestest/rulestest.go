// Package rulestest holds the checks every variant's tests share: seeded,
// reproducible random playouts that verify a state's consistency after every
// move, notation and serialisation round trips, and golden-file helpers.
package rulestest

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

// Long reports whether BOTTLEPOST_LONG=1 asks for the long runs (minutes
// per package): the thousands of games and the deep perfts.
func Long() bool { return os.Getenv("BOTTLEPOST_LONG") == "1" }

// Size picks how much a test does: short under go test -short (the edit
// loop: a fraction of a second per test), long with BOTTLEPOST_LONG=1, and
// full for the default run.
func Size(short, full, long int) int {
	switch {
	case Long():
		return long
	case testing.Short():
		return short
	}
	return full
}

// Update is the -update flag: golden files are rewritten instead of compared.
var Update = flag.Bool("update", false, "rewrite golden files under testdata/")

// Golden compares got with testdata/NAME (rewriting it under -update).
func Golden(t testing.TB, name string, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file %s: %v (run go test -update to create it)", path, err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// Config is a playout run.
type Config struct {
	Variant rules.Variant
	Options rules.Options
	Games   int
	Seed    uint64
	// MaxPlies stops a game that has not ended; such a game fails the run
	// unless AllowUnfinished is set. 0 means 3000.
	MaxPlies        int
	AllowUnfinished bool
	// Every, if set, is called after every accepted move (for extra checks).
	Every func(t testing.TB, before, after rules.State, m rules.Move, rep *rules.Report)
	// Choose, if set, picks the index of the move to try first (default: uniform).
	Choose func(r *rand.Rand, s rules.State, moves []rules.Move) int
}

// Stats summarises a playout run.
type Stats struct {
	Games, Finished, Plies, Refused int
	Results                         map[string]int // by outcome reason
}

// String is a one-line summary for logs.
func (s Stats) String() string {
	keys := make([]string, 0, len(s.Results))
	for k := range s.Results {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, s.Results[k]))
	}
	return fmt.Sprintf("%d games (%d finished), %d plies, %d refused; %s",
		s.Games, s.Finished, s.Plies, s.Refused, strings.Join(parts, ", "))
}

// Playout plays cfg.Games random games from the start, each seeded from
// cfg.Seed and its number so a failure names a reproducible game. After
// every move it checks: the new state's Check; that MarshalBinary →
// Unmarshal → MarshalBinary is stable; that every move offered formats to a
// text that parses back to the same move; that Apply left the old state
// untouched; that a refused move leaves nothing changed; that every viewer's
// view renders. A game must end with a valid outcome within MaxPlies.
func Playout(t testing.TB, cfg Config) Stats {
	t.Helper()
	maxPlies := cfg.MaxPlies
	if maxPlies == 0 {
		maxPlies = 3000
	}
	st := Stats{Results: map[string]int{}}
	for g := range cfg.Games {
		st.Games++
		r := rand.New(rand.NewPCG(cfg.Seed, uint64(g)))
		opt := cfg.Options
		if opt.Seed == 0 {
			opt.Seed = cfg.Seed + uint64(g)
		}
		s, err := cfg.Variant.New(opt)
		if err != nil {
			t.Fatalf("game %d: new: %v", g, err)
		}
		CheckState(t, s, fmt.Sprintf("game %d start", g))
		var played []string
		for ply := 0; ; ply++ {
			// where names the position for a failure; the moves are joined only then.
			where := func() string {
				return fmt.Sprintf("%s game %d (seed %d) after %q", cfg.Variant.ID(), g, cfg.Seed, strings.Join(played, " "))
			}
			label := func() string { return fmt.Sprintf("%s game %d (seed %d) ply %d", cfg.Variant.ID(), g, cfg.Seed, ply) }
			if s.Outcome().Over() {
				if len(s.Moves()) != 0 {
					t.Fatalf("%s: game over (%v) but moves are offered", where(), s.Outcome())
				}
				st.Finished++
				st.Results[s.Outcome().Reason]++
				break
			}
			if ply >= maxPlies {
				if !cfg.AllowUnfinished {
					t.Fatalf("%s: not finished after %d plies", where(), ply)
				}
				st.Results["unfinished"]++
				break
			}
			moves := s.Moves()
			if len(moves) == 0 {
				t.Fatalf("%s: no moves offered but the game is not over", where())
			}
			CheckNotation(t, s, moves, label())
			order := r.Perm(len(moves))
			if cfg.Choose != nil {
				first := cfg.Choose(r, s, moves)
				for i, k := range order {
					if k == first {
						order[0], order[i] = order[i], order[0]
					}
				}
			}
			before, _ := s.MarshalBinary()
			var next rules.State
			var rep *rules.Report
			var m rules.Move
			for _, k := range order {
				m = moves[k]
				next, rep, err = s.Apply(m)
				if err == nil {
					break
				}
				var me *rules.MoveError
				if !errors.As(err, &me) || me.Kind != rules.Refused {
					t.Fatalf("%s: offered move %s failed: %v", where(), s.Format(m), err)
				}
				st.Refused++
				next = nil
			}
			if after, _ := s.MarshalBinary(); !bytes.Equal(before, after) {
				t.Fatalf("%s: Apply changed the state it was called on", where())
			}
			if next == nil {
				t.Fatalf("%s: every offered move was refused, yet the game is not over", where())
			}
			if rep == nil || rep.Record[rules.ViewReferee] == "" {
				t.Fatalf("%s: move %s gave no referee record", where(), s.Format(m))
			}
			played = append(played, rep.Record[rules.ViewReferee])
			CheckState(t, next, label())
			if cfg.Every != nil {
				cfg.Every(t, s, next, m, rep)
			}
			st.Plies++
			s = next
		}
	}
	return st
}

// CheckState runs a state's own consistency check, its serialisation round
// trip and every viewer's rendering.
func CheckState(t testing.TB, s rules.State, where string) {
	t.Helper()
	if err := s.Check(); err != nil {
		t.Fatalf("%s: inconsistent state: %v", where, err)
	}
	data, err := s.MarshalBinary()
	if err != nil {
		t.Fatalf("%s: marshal: %v", where, err)
	}
	back, err := s.Variant().Unmarshal(data)
	if err != nil {
		t.Fatalf("%s: unmarshal: %v", where, err)
	}
	again, err := back.MarshalBinary()
	if err != nil || !bytes.Equal(data, again) {
		t.Fatalf("%s: serialisation does not round-trip (%v)", where, err)
	}
	if back.ToMove() != s.ToMove() || back.Ply() != s.Ply() || back.Outcome() != s.Outcome() {
		t.Fatalf("%s: decoded state differs", where)
	}
	for v := range rules.NumViewers {
		if txt := s.View(v).ASCII(); txt == "" {
			t.Fatalf("%s: empty board for %v", where, v)
		}
	}
}

// CheckNotation verifies that each offered move formats to a distinct text
// that parses back to the same move.
func CheckNotation(t testing.TB, s rules.State, moves []rules.Move, where string) {
	t.Helper()
	seen := make(map[string]rules.Move, len(moves))
	for _, m := range moves {
		text := s.Format(m)
		if prev, dup := seen[text]; dup && prev != m {
			t.Fatalf("%s: two moves format as %q", where, text)
		}
		seen[text] = m
		back, err := s.Parse(text)
		if err != nil {
			t.Fatalf("%s: %q does not parse back: %v", where, text, err)
		}
		if back != m {
			t.Fatalf("%s: %q parses to another move (%+v, want %+v)", where, text, back, m)
		}
	}
}

// Play applies moves given as text from the start, failing the test on any
// error, and returns the final state.
func Play(t testing.TB, v rules.Variant, opt rules.Options, moves ...string) rules.State {
	t.Helper()
	s, err := v.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	return PlayFrom(t, s, moves...)
}

// ParseError parses text, which must be refused, and returns its
// *rules.MoveError (failing the test otherwise).
func ParseError(t testing.TB, s rules.State, text string) *rules.MoveError {
	t.Helper()
	m, err := s.Parse(text)
	if err == nil {
		t.Fatalf("%q parsed as %s, want an error", text, s.Format(m))
	}
	var me *rules.MoveError
	if !errors.As(err, &me) {
		t.Fatalf("%q: %v is not a *rules.MoveError", text, err)
	}
	return me
}

// PlayFrom applies moves given as text to s, failing the test on any error,
// and returns the final state.
func PlayFrom(t testing.TB, s rules.State, moves ...string) rules.State {
	t.Helper()
	for i, text := range moves {
		m, err := s.Parse(text)
		if err != nil {
			t.Fatalf("move %d %q: %v", i+1, text, err)
		}
		s, _, err = s.Apply(m)
		if err != nil {
			t.Fatalf("move %d %q: %v", i+1, text, err)
		}
	}
	return s
}

// MoveTexts returns the canonical texts of the offered moves, sorted.
func MoveTexts(s rules.State) []string {
	var out []string
	for _, m := range s.Moves() {
		out = append(out, s.Format(m))
	}
	sort.Strings(out)
	return out
}

// Rewrites returns texts a player might write for a move whose full
// spelling (every part written) is f in notation n, built from the parts
// by the notation's own rules, apart from its reader: every structure it
// accepts for the move (the piece letter written, in lower case where
// case does not decide, as a figurine, or left out where the notation lets
// it go: for the bare piece, or with the square left; the square left in
// full, as its file, its rank or not at all; each separator; the promotion
// with =, in brackets or bare, or left out where optional; the second
// square, or not where optional; the record's mark), each presented one
// way drawn from r: squares in either case (but for a case-fixed letter at
// the start), spaces between the parts or not, any dash for "-", "×" for
// "x", check and annotation marks after it. A move outside the grammar
// (castling, a variant's special form) is rewritten from canonical: in
// either case, with spaces, with marks. canonical itself comes first.
func Rewrites(n *rules.Notation, f rules.Written, canonical string, r *rand.Rand) []string {
	out := []string{canonical, present(canonical, r)}
	sep, special := sepsFor(n, f)
	if special || f.To == rules.NoSquare || f.From == rules.NoSquare {
		for _, t := range []string{canonical, strings.ToLower(canonical), strings.ToUpper(canonical), spaced(canonical)} {
			out = append(out, t, t+marks[r.IntN(len(marks))])
		}
		return out
	}
	b := n.Board
	from, to := b.Name(f.From), b.Name(f.To)
	for _, letter := range letterForms(n, f) {
		for _, origin := range originForms(n, f, letter, from) {
			for _, s := range sep {
				for _, promo := range promoForms(n, f) {
					for _, aux := range auxForms(n, f) {
						tail := ""
						if f.Mark != "" && !slices.ContainsFunc(n.Seps, func(x [3]string) bool { return x[1] == f.Mark }) {
							tail = f.Mark // a record's mark (Baltic's +1)
						}
						parts := []string{letter, origin, s, to, promo, aux, tail}
						out = append(out, compose(n, parts, r))
					}
				}
			}
		}
	}
	return out
}

// marks are what a player may add after a move: check and annotation.
var marks = []string{"+", "#", "!", "?", "+!", "!?"}

// dashes are the ways "-" is typed.
var dashes = []string{"-", "–", "—", "−"}

// sepsFor lists the separators of a move's kind: -, x, : and none for an
// ordinary move (or one whose Mark the notation's Tail writes after it),
// else the notation's own for its Mark; special is true when no separator
// of the grammar marks the move (it is written outside the grammar).
func sepsFor(n *rules.Notation, f rules.Written) (seps []string, special bool) {
	if f.Mark == "" {
		return []string{"-", "x", ":", ""}, false
	}
	for _, x := range n.Seps {
		if x[1] == f.Mark {
			seps = append(seps, x[0])
		}
	}
	if len(seps) > 0 {
		return seps, false
	}
	if n.Tail != nil {
		if _, ok := n.Tail(f.Mark); ok {
			return []string{"-", "x", ":", ""}, false
		}
	}
	return nil, true
}

// letterForms are the ways the piece letter may be written: upper case,
// lower case (unless case-fixed), as a figurine, or not at all ("" also
// stands for a notation without letters).
func letterForms(n *rules.Notation, f rules.Written) []string {
	if f.Letter == 0 {
		return []string{""}
	}
	l := string(f.Letter)
	out := []string{l, ""}
	if !strings.Contains(n.CaseFixed, l) {
		out = append(out, strings.ToLower(l))
	}
	for g, c := range n.Glyphs {
		if c == f.Letter {
			out = append(out, string(g))
			break
		}
	}
	for _, a := range aliases(n, f.Letter) {
		out = append(out, a)
		if !strings.Contains(n.CaseFixed, a) {
			out = append(out, strings.ToLower(a))
		}
	}
	return out
}

// aliases are the other letters n reads as letter (German chess's D for
// Q), upper case, in order.
func aliases(n *rules.Notation, letter byte) []string {
	var out []string
	for a, l := range n.Aliases {
		if l == letter {
			out = append(out, string(a))
		}
	}
	sort.Strings(out)
	return out
}

// originForms are the ways the square left may be written after letter:
// in full, as its file or its rank, or not at all, each where the notation
// lets the rest go: a letter in lower case is never followed by a digit
// (there it would be a file); a letter left out needs the whole square,
// but for the bare piece, whose capture names at least its file; a
// notation without letters always writes the square.
func originForms(n *rules.Notation, f rules.Written, letter, from string) []string {
	file, rank := from[:1], from[1:]
	switch {
	case f.Letter == 0:
		return []string{from}
	case letter != "" && letter[0] >= 'a' && letter[0] <= 'z':
		return []string{from, file, ""}
	case letter != "":
		return []string{from, file, rank, ""}
	case f.Letter == n.Bare && f.Capture:
		return []string{from, file}
	case f.Letter == n.Bare:
		return []string{from, ""}
	case !n.NeedLetter:
		return []string{from}
	}
	return nil
}

// promoForms are the ways a promotion may be written.
func promoForms(n *rules.Notation, f rules.Written) []string {
	if f.Promo == 0 {
		return []string{""}
	}
	p := string(f.Promo)
	out := []string{"=" + p, "=" + strings.ToLower(p), "(" + p + ")", p, strings.ToLower(p)}
	for _, a := range aliases(n, f.Promo) {
		out = append(out, "="+a, a, "("+strings.ToLower(a)+")")
	}
	if n.OptionalPromo {
		out = append(out, "")
	}
	return out
}

// auxForms are the ways the second square may be written.
func auxForms(n *rules.Notation, f rules.Written) []string {
	if f.Aux == rules.NoSquare {
		return []string{""}
	}
	out := []string{n.AuxMark + n.Board.Name(f.Aux)}
	if n.OptionalAux {
		out = append(out, "")
	}
	return out
}

// compose presents parts (letter, origin, separator, to, promotion, second
// square, mark) one way drawn from r.
func compose(n *rules.Notation, parts []string, r *rand.Rand) string {
	upper := r.IntN(3) == 0
	for _, i := range []int{1, 3, 5} { // the squares and files
		if !upper {
			continue
		}
		p := strings.ToUpper(parts[i])
		if i == 1 && parts[0] == "" && p != "" && strings.Contains(n.CaseFixed, p[:1]) {
			continue // at the start a case-fixed upper-case letter is the piece
		}
		parts[i] = p
	}
	if parts[0] == "" && parts[1] == "" && upper && strings.Contains(n.CaseFixed, strings.ToUpper(parts[3][:1])) {
		parts[3] = strings.ToLower(parts[3])
	}
	switch parts[2] {
	case "-":
		parts[2] = dashes[r.IntN(len(dashes))]
	case "x":
		if r.IntN(4) == 0 {
			parts[2] = "×"
		}
	}
	glue := ""
	if r.IntN(3) == 0 {
		glue = " "
	}
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	t := strings.Join(kept, glue)
	if r.IntN(3) == 0 {
		t += marks[r.IntN(len(marks))]
	}
	return t
}

// present is a text with spaces or marks drawn from r.
func present(t string, r *rand.Rand) string {
	if r.IntN(2) == 0 {
		t = spaced(t)
	}
	return t + []string{"", "+", "!?"}[r.IntN(3)]
}

// spaced puts a space between the characters of t.
func spaced(t string) string {
	return strings.Join(strings.Split(t, ""), " ")
}

// RewriteStats counts what CheckRewrites tried and how each text was taken.
type RewriteStats struct {
	Positions, Moves, Texts int
	Read                    int // read as the move rewritten
	Ambiguous               int // refused as fitting several moves
	Refused                 int // refused otherwise
}

// String is a one-line summary for logs.
func (st RewriteStats) String() string {
	return fmt.Sprintf("%d positions, %d moves, %d texts: %d read as the move, %d refused as ambiguous, %d refused otherwise",
		st.Positions, st.Moves, st.Texts, st.Read, st.Ambiguous, st.Refused)
}

// CheckRewrites rewrites every legal move of s (moves: each spelled as the
// variant's notation n spells it) in the forms of Rewrites and parses each
// text: it must be read as the move rewritten or refused, never as another
// move. A misreading fails the test, naming where (the position), the text
// and both moves; a move's canonical text must be read as the move.
func CheckRewrites(t testing.TB, n *rules.Notation, s rules.State, moves []rules.Spelled, r *rand.Rand, where string, st *RewriteStats) {
	t.Helper()
	CheckRewritesIn(t, n, s, moves, r, where, st, "")
}

// CheckRewritesIn is CheckRewrites for a player whose language is lang:
// the texts are read by rules.ParseIn, and n is the notation of that
// language (German chess's letters).
func CheckRewritesIn(t testing.TB, n *rules.Notation, s rules.State, moves []rules.Spelled, r *rand.Rand, where string, st *RewriteStats, lang string) {
	t.Helper()
	st.Positions++
	for _, m := range moves {
		st.Moves++
		seen := map[string]bool{}
		for _, f := range m.Parts {
			for _, text := range Rewrites(n, f, m.Text, r) {
				if seen[text] {
					continue
				}
				seen[text] = true
				st.Texts++
				got, err := rules.ParseIn(s, text, lang)
				var me *rules.MoveError
				switch {
				case err == nil && got == m.Move:
					st.Read++
				case err == nil:
					t.Fatalf("%s: %q, written for %s, was read as %s", where, text, m.Text, s.Format(got))
				case text == m.Text:
					t.Fatalf("%s: the canonical %q was refused: %v", where, text, err)
				case errors.As(err, &me) && me.Kind == rules.Ambiguous:
					st.Ambiguous++
					if !slices.Contains(me.Options, m.Text) {
						t.Fatalf("%s: %q, written for %s, is ambiguous between %v, without it", where, text, m.Text, me.Options)
					}
				default:
					st.Refused++
				}
			}
		}
	}
}

// RandomPositions calls fn with n positions of seeded random games of v,
// one after each move, starting a new game (with the next seed) when one
// ends or has run 300 plies. where names the position by the variant, the
// seed and the moves that led to it.
func RandomPositions(t testing.TB, v rules.Variant, opt rules.Options, seed uint64, n int, fn func(s rules.State, where string)) {
	t.Helper()
	var s rules.State
	var played []string
	r := rand.New(rand.NewPCG(seed, 0))
	game := seed
	for i := 0; i < n; i++ {
		if s == nil || s.Outcome().Over() || len(played) >= 300 {
			o := opt
			o.Seed = game
			var err error
			if s, err = v.New(o); err != nil {
				t.Fatal(err)
			}
			played, game = nil, game+1
		}
		fn(s, fmt.Sprintf("%s (seed %d) after %q", v.ID(), game-1, strings.Join(played, " ")))
		moves := s.Moves()
		for _, k := range r.Perm(len(moves)) {
			if next, rep, err := s.Apply(moves[k]); err == nil {
				played = append(played, rep.Record[rules.ViewReferee])
				s = next
				break
			}
		}
	}
}

// Rewriting is the rewrite test of a variant (issue 37): every legal move
// of random positions (200 per ruleset; 20 under -short, 3,000 with
// BOTTLEPOST_LONG=1), rewritten in every form the notation n accepts, is
// read as that move or refused, never as another (CheckRewrites). spelled
// gives a state's legal moves as the variant spells them.
func Rewriting(t *testing.T, v rules.Variant, n *rules.Notation, spelled func(rules.State) []rules.Spelled) {
	t.Helper()
	RewritingIn(t, v, n, spelled, "")
}

// RewritingIn is Rewriting for a player whose language is lang, with that
// language's notation n (rules.ParseIn).
func RewritingIn(t *testing.T, v rules.Variant, n *rules.Notation, spelled func(rules.State) []rules.Spelled, lang string) {
	t.Helper()
	var st RewriteStats
	r := rand.New(rand.NewPCG(37, 37))
	for i, ruleset := range v.Rulesets() {
		RandomPositions(t, v, rules.Options{Ruleset: ruleset}, uint64(37+100*i), Size(20, 200, 3000), func(s rules.State, where string) {
			CheckRewritesIn(t, n, s, spelled(s), r, where, &st, lang)
		})
	}
	t.Log(st)
	if st.Read < st.Moves {
		t.Errorf("too few texts were read as their move: %v", st)
	}
}

// FuzzRewriting is a variant's fuzz target over its matcher: the fuzzer
// chooses a random position (the game and how far into it), a legal move
// and how it is rewritten (Rewrites), and the text must be read as that
// move or refused; an arbitrary text must not upset Parse. seed is a text
// of the notation for the corpus.
func FuzzRewriting(f *testing.F, v rules.Variant, n *rules.Notation, spelled func(rules.State) []rules.Spelled, seed string) {
	FuzzRewritingIn(f, v, n, spelled, seed, "")
}

// FuzzRewritingIn is FuzzRewriting for a player whose language is lang,
// with that language's notation n (rules.ParseIn).
func FuzzRewritingIn(f *testing.F, v rules.Variant, n *rules.Notation, spelled func(rules.State) []rules.Spelled, seed, lang string) {
	f.Add(uint64(1), uint8(10), uint16(3), uint64(7), seed)
	f.Add(uint64(2), uint8(41), uint16(17), uint64(99), "x")
	f.Fuzz(func(t *testing.T, game uint64, plies uint8, pick uint16, recipe uint64, text string) {
		var s rules.State
		RandomPositions(t, v, rules.Options{}, game%1000, int(plies%60)+1, func(p rules.State, _ string) { s = p })
		_, _ = rules.ParseIn(s, text, lang)
		moves := spelled(s)
		if s.Outcome().Over() || len(moves) == 0 {
			return
		}
		m := moves[int(pick)%len(moves)]
		r := rand.New(rand.NewPCG(recipe, 0))
		texts := Rewrites(n, m.Parts[int(recipe%uint64(len(m.Parts)))], m.Text, r)
		written := texts[int(recipe>>8%uint64(len(texts)))]
		if got, err := rules.ParseIn(s, written, lang); err == nil && got != m.Move {
			t.Fatalf("%q, written for %s, was read as %s", written, m.Text, s.Format(got))
		}
	})
}
