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
