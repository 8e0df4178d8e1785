package record

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/store"
)

// exampleFile is the test vector of docs/verify.md's worked example.
const exampleFile = "verify-example.pgn"

// exampleValues computes, from the test vector alone with SHA-256 and HMAC (as an
// independent verifier would), every value the worked example quotes, by name.
func exampleValues(t *testing.T, file []byte) map[string]string {
	t.Helper()
	x := exportOf(t, file)
	v := map[string]string{}
	v["file"] = "record/testdata/" + exampleFile
	v["game"] = strconv.FormatUint(x.Game.ID, 10)
	start := lengthPrefixed([]byte("bottlepost/chain/v1"), binary.BigEndian.AppendUint64(nil, x.Game.ID))
	v["head0.input"] = hex.EncodeToString(start)
	head := sha256.Sum256(start)
	v["head0"] = hex.EncodeToString(head[:])
	secret := -1
	for i, r := range x.Records {
		prev := head
		head = sha256.Sum256(append(prev[:], r.Record...))
		if i == 0 {
			v["record0"] = hex.EncodeToString(r.Record)
			v["record0.text"] = r.Text
			v["head1"] = hex.EncodeToString(head[:])
		}
		if r.Secret && secret < 0 {
			secret = i
			v["secret.index"] = strconv.Itoa(i)
			v["secret.record"] = hex.EncodeToString(r.Record)
			v["secret.head-before"] = hex.EncodeToString(prev[:])
			v["secret.head-after"] = hex.EncodeToString(head[:])
			v["secret.ply"] = strconv.Itoa(int(r.Ply))
			v["secret.side"] = strconv.Itoa(int(r.Side))
			v["secret.text"] = r.Opening.Text
			v["secret.key"] = hex.EncodeToString(r.Opening.Key[:])
			in := lengthPrefixed([]byte("bottlepost/commit/v1"), binary.BigEndian.AppendUint64(nil, x.Game.ID),
				binary.BigEndian.AppendUint32(nil, r.Ply), []byte{byte(r.Side)}, []byte(r.Opening.Text))
			v["secret.mac-input"] = hex.EncodeToString(in)
			m := hmac.New(sha256.New, r.Opening.Key[:])
			m.Write(in)
			v["secret.commitment"] = hex.EncodeToString(m.Sum(nil))
		}
		if i == len(x.Records)-1 {
			v["end.index"] = strconv.Itoa(i)
			v["end.record"] = hex.EncodeToString(r.Record)
			v["end.text"] = r.Text
			v["end.head-before"] = hex.EncodeToString(prev[:])
		}
	}
	v["head"] = hex.EncodeToString(head[:])
	v["records"] = strconv.Itoa(len(x.Records))
	v["receipt"] = v["records"] + ":" + v["head"]
	return v
}

// TestVerifyDocExample: the test vector verifies, and every value docs/verify.md's worked
// example quotes (the lines "name: value" between its example markers) is the value the
// vector gives, computed here with nothing but SHA-256 and HMAC. The game service writes the
// vector (go test ./game -run TestVerifyExampleVector -update).
func TestVerifyDocExample(t *testing.T) {
	file, err := readTestdata(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	want := exampleValues(t, file)
	rc, err := store.ParseReceipt(want["receipt"])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(bytes.NewReader(file), rc); err != nil {
		t.Fatalf("the test vector does not verify: %v", err)
	}
	if want["secret.commitment"] == "" || !bytes.Contains(file, []byte(want["secret.commitment"])) {
		t.Errorf("the vector's commitment %q is not what its PGN comment shows", want["secret.commitment"])
	}
	doc, err := os.ReadFile(filepath.Join("..", "docs", "verify.md"))
	if err != nil {
		t.Fatal(err)
	}
	in, seen := false, map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(doc))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch strings.TrimSpace(line) {
		case "<!-- example -->":
			in = true
			continue
		case "<!-- /example -->":
			in = false
			continue
		}
		name, value, ok := strings.Cut(line, ": ")
		if !in || !ok || strings.ContainsAny(name, " `") {
			continue
		}
		w, known := want[name]
		if !known {
			t.Errorf("docs/verify.md quotes %s, which the test does not compute", name)
			continue
		}
		seen[name] = true
		if got := strings.TrimSpace(value); got != w {
			t.Errorf("docs/verify.md: %s is\n  %s\nbut the vector gives\n  %s", name, got, w)
		}
	}
	for name, w := range want {
		if !seen[name] {
			t.Errorf("docs/verify.md's example does not quote %s (the vector gives %s: %s)", name, name, w)
		}
	}
}
