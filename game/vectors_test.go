package game

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/store"
)

// verifyVectors are the test vectors docs/verify.md gives for every variant ("Test
// vectors"): a game of each (Baltic Sea Chess in both rulesets) played by mail through the
// service to an ending of its rules, alice (White) v bob. The moves were found by random
// play from the start the fixture's first game gets (seed 18101047186125662730), preferring
// a move that ends the game; the Seachess game has secret moves.
var verifyVectors = []struct {
	name, variant, ruleset string
	moves                  string // in the order played, the first mover's first
}{
	{"chess", "chess", "", "e4 g5 Bc4 f5 Qh5#"},
	{"seachess", "seachess", "", "Bg2-g5 Bj11-j9 Bf2-f5 Bi11-i9 Bi2-i5 Bf11-f8 Af1-h3 Si12v-h10 Ah3-g4 Sh10-f9 Ag4-h5 " +
		"Cc12-M Bg5-g6 Af12-f10 Sd1-f2 Bg11-g10 Sf2v-d1 Sf9v-e11 De1-g3 Af10-e10 Ah5xaf8 Dh12-b6"},
	{"submachine", "submachine", "", "Mh1-i5 Rk12-j9 Mi5-i10 Qe12-d9 e2-e3 h11-h8 Mi10xj12"},
	{"baltic-holdorf", "baltic", "holdorf", "e1-f2 e8-f7 b1-a3 h8-h7 d2-e1 d8-d7 a3-c4 b8-c6 d1-e2 g8-f6 c4-d2 f8-g7 " +
		"c1-b2 f6-e4 f2-f3 e4-f2 d2-b3 a8-b8 b3-c5 g7-f6 e2-d1 f7-g6 c5xd7 c6-d4 b2-c3 f2xd1 f3-e2 d4-c2 c3-d4 c2xa1 d4-e5 c8xd7"},
	{"baltic-sc2022", "baltic", "sc2022", "d1-e2 b8-a7 e2-f3 e8-d7 f3-g2 d8-b7 g2-f3 c8-c7 f3-g2 a7-b8 b1-a2 g8-f7 " +
		"e1-f3 f8-e7 f3-e5 b7-a5 e5xd7 a5-b3 g2-g3 b3xc1 g1-h2 c7xd7 g3-g4 c1xa2"},
	{"battle", "battle", "", "Sc3-c4 Ci12-j9 Sj3-j5 Sc10-d9 Si3-j4 Cj9-i6 Ci1-j3 Ci6-h8 Sc2-b3 Sj10-i9 Sh2-i3 Si10-g8 " +
		"Se3-e4 Cd12-b9 Sj2-i1 Bf12-d12 Sf2-e3 Si9-h9 Hg1-f2 Sd9-c10 Cj3-g1 Ch8-g5"},
	{"transporter", "transporter", "", "Dh9-j7 Fi2-j3@j8 Ig6-d6 Id5-f5 Fc8-b7 Fe3-c5 Fh8-i7 Dh2-j4 Md9-c8 Dj4-h6 " +
		"Fe8-g6 If5-h5 Ae10-d9 Dh6xf8 Fg6-f5 Df8xe9"},
}

// TestVerifyVectors plays every test vector's game through the service: each ends by its
// rules and verifies against every receipt its players were sent, anchored by the final
// one; the service writes each file as record/testdata/vectors holds it, but for what is
// drawn at random (keys, and the digests that hash them). With -update it writes the
// vectors: NAME.pgn, the file, and NAME.receipts, every receipt the mails quoted, in the
// order each player got them (go test ./game -run TestVerifyVectors -update).
func TestVerifyVectors(t *testing.T) {
	dir := filepath.Join("..", "record", "testdata", "vectors")
	hexRun := regexp.MustCompile(`[0-9a-f]{64}`)
	for _, vec := range verifyVectors {
		t.Run(vec.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			challenge := "new " + vec.variant + " vs " + bob + " as white"
			if vec.ruleset != "" {
				challenge += " rules " + vec.ruleset
			}
			f.send(alice, f.personal(alice), "new", challenge)
			f.reply(bob, "accept")
			for i, m := range strings.Fields(vec.moves) {
				who := []string{alice, bob}[loadGame(t, f, 1).state.ToMove()]
				f.reply(who, m)
				if !strings.Contains(f.last(who).Text, "Your move "+m+" was accepted") {
					t.Fatalf("move %d, %s of %s, was not accepted:\n%s", i+1, m, who, f.last(who).Text)
				}
			}
			if l := loadGame(t, f, 1); l.meta.Phase != phaseOver || l.meta.Outcome == nil || l.meta.Outcome.Ruling == "" {
				t.Fatalf("the game did not end by its rules: phase %s, %q", l.meta.Phase, l.meta.Reason)
			}
			pgn := finalPGN(t, f, 1)
			var lines []string
			var all []store.Receipt
			for _, p := range []struct{ side, addr string }{{"white", alice}, {"black", bob}} {
				for _, rc := range f.receiptsOf(p.addr, "bp-1") {
					lines = append(lines, p.side+" "+rc.String())
					all = append(all, rc)
				}
			}
			receipts := fmt.Sprintf("# Receipts of %s.pgn: every one the mails of game 1 quoted, as \"SIDE RECORDS:HEAD\",\n# in the order each player got them.\n%s\n",
				vec.name, strings.Join(lines, "\n"))
			res, err := record.Verify(bytes.NewReader(pgn), all...)
			if err != nil || res.Anchor.Records != res.Records || res.Ruling == "" {
				t.Fatalf("the file does not verify, anchored by the final receipt, with the rules' ending: %v %+v\n%s", err, res, pgn)
			}
			path := filepath.Join(dir, vec.name)
			if *update {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path+".pgn", pgn, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path+".receipts", []byte(receipts), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, file := range []struct {
				ext  string
				made []byte
			}{{".pgn", pgn}, {".receipts", []byte(receipts)}} {
				held, err := os.ReadFile(path + file.ext)
				if err != nil {
					t.Fatal(err)
				}
				mask := func(b []byte) string {
					text, _, _ := strings.Cut(string(b), "{bottlepost-export/1")
					return hexRun.ReplaceAllString(text, "HEX")
				}
				if got, want := mask(file.made), mask(held); got != want {
					t.Errorf("the service writes %s%s otherwise than the vector (go test ./game -run TestVerifyVectors -update):\n%s\n--- vector:\n%s",
						vec.name, file.ext, got, want)
				}
			}
		})
	}
}
