package baltic

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

func TestMarshalFormat(t *testing.T) {
	s := rulestest.Play(t, Variant, rules.Options{Ruleset: RulesSC2022, Seed: 5}, sampleSC2022[:9]...)
	data, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"v":2,"rules":"sc2022","board":"gc.s.c../...s..../......../......../......l./......../......../G.CLSSCG",` +
		`"first":"white","ply":9,"points":[1,0],"start":"shuffled","seed":5}`
	eq(t, "version 2", string(data), want)
	back, err := Variant.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "moves after the round trip", strings.Join(rulestest.MoveTexts(back), " "), strings.Join(rulestest.MoveTexts(s), " "))
	eq(t, "to move", back.ToMove(), rules.Black)
}

func TestUnmarshalRejects(t *testing.T) {
	good := `{"v":1,"rules":"holdorf","board":"glcssclg/....s.../......../......../......../......../...S..../GLCSSCLG","first":"white","ply":0,"points":[0,0],"start":"standard","seed":0}`
	if _, err := Variant.Unmarshal([]byte(good)); err != nil {
		t.Fatalf("good: %v", err)
	}
	for name, bad := range map[string]string{
		"version 3":          strings.Replace(good, `"v":1`, `"v":3`, 1),
		"v1 bracketed stack": strings.Replace(good, `....s...`, `....[sC]..`, 1),
		"stack of own discs": strings.Replace(strings.Replace(good, `"v":1`, `"v":2`, 1), `....s...`, `....[sc]..`, 1),
		"three gulls":        strings.Replace(strings.Replace(good, `"v":1`, `"v":2`, 1), `...S....`, `...[SG]...`, 1),
		"unknown rules":      strings.Replace(good, `"holdorf"`, `"chess"`, 1),
		"no rules":           strings.Replace(good, `"rules":"holdorf",`, ``, 1),
		"unknown field":      strings.Replace(good, `"seed":0`, `"seed":0,"x":1`, 1),
		"short rank":         strings.Replace(good, `GLCSSCLG"`, `GLCSSCL"`, 1),
		"stack of 3":         strings.Replace(good, `....s...`, `....s3..`, 1),
		"first red":          strings.Replace(good, `"white"`, `"red"`, 1),
		"negative ply":       strings.Replace(good, `"ply":0`, `"ply":-1`, 1),
		"4 points":           strings.Replace(good, `[0,0]`, `[4,0]`, 1),
		"points and discs":   strings.Replace(good, `[0,0]`, `[1,0]`, 1), // 9 discs on the board and a point
		"unknown start":      strings.Replace(good, `"standard"`, `"magic"`, 1),
		"seed not shuffled":  strings.Replace(good, `"seed":0`, `"seed":3`, 1),
		"holdorf shuffled":   strings.Replace(good, `"standard"`, `"shuffled"`, 1),
		"gull on far rank":   strings.Replace(good, `......../......../......../......../...S....`, `...G..../......../......../......../...S....`, 1),
		"10 discs":           strings.Replace(good, `....s...`, `s...s...`, 1),
		"trailing":           good + `{}`,
		"not json":           `baltic`,
		"empty":              ``,
	} {
		if _, err := Variant.Unmarshal([]byte(bad)); err == nil {
			t.Errorf("%s: accepted %s", name, bad)
		}
	}
}

// TestCoveredDiscs checks that a stack keeps the animal of the disc it
// covers through moves, position strings and the serialised state, and
// that a version-1 state (which never had it) is read with it unknown.
func TestCoveredDiscs(t *testing.T) {
	s := at(t, RulesHoldorf, "g6c/8/8/8/8/8/2g5/L6G")
	next, _ := apply(t, s, "a1xc2")
	eq(t, "after the capture", boardText(&next.cells), "g......c/......../......../......../......../......../..[Lg]...../.......G")
	next, _ = apply(t, next, "a8-b8")
	next, _ = apply(t, next, "c2-e3")
	eq(t, "the stack moved whole (B3.1)", boardText(&next.cells), ".g.....c/......../......../......../......../....[Lg].../......../.......G")
	data, err := next.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Variant.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "round trip", boardText(&back.(*State).cells), boardText(&next.cells))
	v1 := strings.Replace(strings.Replace(string(data), `"v":2`, `"v":1`, 1), "[Lg]", "L2", 1)
	sq := board.MustParse("e3")
	old, err := Variant.Unmarshal([]byte(v1))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "version 1: not known", old.View(rules.ViewPublic).SquareName(sq, nil), "e3, white seal on black disc")
	eq(t, "version 2: known", back.View(rules.ViewPublic).SquareName(sq, nil), "e3, white seal on black gull")
}

func FuzzUnmarshal(f *testing.F) {
	for _, p := range viewPositions {
		s := rulestest.Play(f, Variant, p.opt, p.moves...)
		data, _ := s.MarshalBinary()
		f.Add(data)
	}
	f.Add([]byte(`{"v":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Variant.Unmarshal(data)
		if err != nil {
			return
		}
		if err := s.Check(); err != nil {
			t.Fatalf("accepted an inconsistent state: %v", err)
		}
		again, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Variant.Unmarshal(again); err != nil {
			t.Fatalf("re-encoded state rejected: %v", err)
		}
		for _, m := range s.Moves() {
			if _, _, err := s.Apply(m); err != nil {
				t.Fatalf("offered move %s refused: %v", s.Format(m), err)
			}
		}
	})
}

func FuzzParse(f *testing.F) {
	states := []rules.State{
		at(f, RulesHoldorf, ""),
		at(f, RulesHoldorf, "l..s2...l/3G4/8/3s4/3G4/8/8/L6L"),
		at(f, RulesSC2022, "l..s2...l/3G4/8/3s4/3G24/8/8/L6L"),
		at(f, RulesHoldorf, "l6l/3G4/8/8/8/8/8/L6L points=3-0"),
	}
	for _, seed := range []string{"b1-c3", "d7xd8+2", "d7-d8+1", "D4 x d5", "h1-f18", "", "+", "a1a1", "zz", "d7-d8+1+1"} {
		for i := range states {
			f.Add(i, seed)
		}
	}
	f.Fuzz(func(t *testing.T, i int, text string) {
		if i < 0 {
			i = -i
		}
		s := states[i%len(states)]
		m, err := s.Parse(text)
		if err != nil {
			if _, ok := err.(*rules.MoveError); !ok {
				t.Fatalf("%q: error %T is not a MoveError", text, err)
			}
			return
		}
		back, err := s.Parse(s.Format(m))
		if err != nil || back != m {
			t.Fatalf("%q → %s does not parse back: %v", text, s.Format(m), err)
		}
		if _, _, err := s.Apply(m); err != nil {
			t.Fatalf("%q parsed but Apply refuses it: %v", text, err)
		}
	})
}

func FuzzPosition(f *testing.F) {
	for _, p := range []string{"", "first=black", "setup=SSS5/GGLLCC..", "l6l/3G4/8/8/8/8/8/L6L points=2-0 ply=4", "8/8/8/c26c2/1G24S21/8/8/8 b", "x=1", "8/8"} {
		f.Add(p, false)
		f.Add(p, true)
	}
	f.Fuzz(func(t *testing.T, pos string, sc bool) {
		rs := RulesHoldorf
		if sc {
			rs = RulesSC2022
		}
		s, err := Variant.New(rules.Options{Ruleset: rs, Position: pos, Seed: 9})
		if err != nil {
			return
		}
		if err := s.Check(); err != nil {
			t.Fatalf("%q: accepted an inconsistent position: %v", pos, err)
		}
		data, _ := s.MarshalBinary()
		if _, err := Variant.Unmarshal(data); err != nil {
			t.Fatalf("%q: its serialisation is rejected: %v", pos, err)
		}
	})
}
