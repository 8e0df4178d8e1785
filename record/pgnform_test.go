package record

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/store"
)

// TestVerifyBothPGNForms: a file in the PGN's form of now (TimeControl "?" and
// TimeControlDays) and one in the form written before (TimeControl "3d", the test
// vector) both verify, the latter saying so; a file changed in either form is refused
// naming the change.
func TestVerifyBothPGNForms(t *testing.T) {
	before, err := readTestdata(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	now, err := render(exportOf(t, before), formMarked)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(now, []byte("[TimeControl \"?\"]\n[TimeControlDays \"3d\"]\n")) || !bytes.Contains(before, []byte("[TimeControl \"3d\"]\n[Variant")) {
		t.Fatalf("the forms' tags:\n%s\n---\n%s", now, before)
	}
	tests := []struct {
		name       string
		file       []byte
		wantErr    string
		wantBefore bool
	}{
		{"the form of now", now, "", false},
		{"the form written before", before, "", true},
		{"the form of now, its days changed", bytes.Replace(now, []byte(`[TimeControlDays "3d"]`), []byte(`[TimeControlDays "5d"]`), 1),
			`the PGN tag TimeControlDays is "5d", but the record gives "3d"`, false},
		{"the form written before, its control changed", bytes.Replace(before, []byte(`[TimeControl "3d"]`), []byte(`[TimeControl "5d"]`), 1),
			`the PGN tag TimeControl is "5d", but the record gives "3d"`, false},
		{"the forms mixed", bytes.Replace(now, []byte(`[TimeControl "?"]`), []byte(`[TimeControl "3d"]`), 1),
			`the PGN tag TimeControl is "3d", but the record gives "?"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Verify(bytes.NewReader(tt.file))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			said := strings.Contains(strings.Join(res.Checks, "\n"), "in the form written before")
			if said != tt.wantBefore {
				t.Errorf("the checks say of the older form: %v, want %v:\n%s", said, tt.wantBefore, strings.Join(res.Checks, "\n"))
			}
		})
	}
}

// TestMarkedText: a move is written with the marks its public record adds (check,
// mate, Baltic's points), else as submitted.
func TestMarkedText(t *testing.T) {
	tests := []struct {
		name string
		r    store.ExportRecord
		want string
	}{
		{"Baltic points", store.ExportRecord{Text: "f7xh8", Public: "f7xh8+1"}, "f7xh8+1"},
		{"Baltic two points", store.ExportRecord{Text: "f7xh8", Public: "f7xh8+12"}, "f7xh8+12"},
		{"a check", store.ExportRecord{Text: "Nc3xc10", Public: "Nc3xc10+"}, "Nc3xc10+"},
		{"a mate", store.ExportRecord{Text: "Qe1-e8", Public: "Qe1-e8#"}, "Qe1-e8#"},
		{"no mark", store.ExportRecord{Text: "e4", Public: "e4"}, "e4"},
		{"no public record", store.ExportRecord{Text: "e4"}, "e4"},
		{"effects, not marks", store.ExportRecord{Text: "Cd4-d5", Public: "Cd4-d5-Mx(d5)"}, "Cd4-d5"},
		{"a secret move", store.ExportRecord{Text: "Sd1v-e3", Public: "Sd1v-e3+", Secret: true}, "Sd1v-e3"},
		{"another move's record", store.ExportRecord{Text: "e4", Public: "d4+"}, "e4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := markedText(tt.r); got != tt.want {
				t.Errorf("markedText = %q, want %q", got, tt.want)
			}
		})
	}
}
