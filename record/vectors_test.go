package record

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

// vectorDir holds the test vectors of docs/verify.md ("Test vectors"): a finished game of
// every variant as NAME.pgn, with NAME.receipts, every receipt its players' mails quoted
// ("white|black RECORDS:HEAD" a line). The game service writes them
// (go test ./game -run TestVerifyVectors -update).
const vectorDir = "testdata/vectors"

// vectorReceipts reads a vector's receipts file.
func vectorReceipts(t *testing.T, name string) []store.Receipt {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectorDir, name+".receipts"))
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Receipt
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		side, text, ok := strings.Cut(line, " ")
		rc, err := store.ParseReceipt(text)
		if !ok || (side != "white" && side != "black") || err != nil {
			t.Fatalf("%s.receipts: line %q: %v", name, line, err)
		}
		out = append(out, rc)
	}
	return out
}

// vectorNames are the vectors in vectorDir.
func vectorNames(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(vectorDir, "*.pgn"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors in %s: %v", vectorDir, err)
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".pgn"))
	}
	return names
}

// TestVerifyVectors: every test vector verifies against every receipt its players were
// sent, anchored by the final one, with the ending its rules give (naming the ruling); each
// receipt alone anchors the file as far as it covers; the vectors cover every variant and
// every ruleset of Baltic Sea Chess, and docs/verify.md names each.
func TestVerifyVectors(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "verify.md"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, name := range vectorNames(t) {
		t.Run(name, func(t *testing.T) {
			file, err := readTestdata(filepath.Join("vectors", name+".pgn"))
			if err != nil {
				t.Fatal(err)
			}
			receipts := vectorReceipts(t, name)
			res, err := Verify(bytes.NewReader(file), receipts...)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if res.Anchor.Records != res.Records || res.Ruling == "" || res.Ruling != res.Termination || res.Moves == 0 {
				t.Errorf("verified as %+v; want it anchored by the final receipt, ended by its rules", res)
			}
			for _, rc := range receipts {
				one, err := Verify(bytes.NewReader(file), rc)
				if err != nil || one.Anchor.Records != rc.Records {
					t.Errorf("receipt %s alone: %v, anchored to %d", rc, err, one.Anchor.Records)
				}
			}
			x := exportOf(t, file)
			seen[x.Game.Variant+"/"+x.Game.Ruleset] = true
			if !bytes.Contains(doc, []byte("record/testdata/vectors/"+name+".pgn")) {
				t.Errorf("docs/verify.md does not name the vector record/testdata/vectors/%s.pgn", name)
			}
		})
	}
	for _, v := range variants.All() {
		rulesets := v.Rulesets()
		if v.ID() != "baltic" {
			rulesets = rulesets[:1]
		}
		for _, rs := range rulesets {
			if !seen[v.ID()+"/"+rs] {
				t.Errorf("no test vector of %s (ruleset %s)", v.ID(), rs)
			}
		}
	}
	if !slices.Contains(vectorNames(t), "seachess") {
		t.Error("no Seachess vector: none with secret moves")
	}
}
