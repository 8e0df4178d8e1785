package game

import (
	"strings"
	"testing"
)

func TestHelp(t *testing.T) {
	tests := []struct {
		name, line, subject string
		contains            []string
	}{
		{"commands", "help", "bottlepost: help", []string{"new"}},
		{"a variant", "help seachess", "bottlepost: help Seachess", []string{"S1"}},
		{"a variant in any case", "HELP Chess", "bottlepost: help Chess", nil},
		{"an unknown variant", "help nosuchgame", "", []string{"nosuchgame"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			pa := f.personal(alice)
			f.send(alice, pa, "help", tt.line)
			m := f.last(alice)
			if tt.subject != "" && m.Subject != tt.subject {
				t.Errorf("subject %q, want %q", m.Subject, tt.subject)
			}
			for _, s := range tt.contains {
				if !strings.Contains(m.Text, s) {
					t.Errorf("the answer to %q lacks %q:\n%s", tt.line, s, m.Text)
				}
			}
		})
	}
}

// TestHelpCommands: help lists the commands between opponents, and help
// COMMAND explains each.
func TestHelpCommands(t *testing.T) {
	f := newFixture(t, Config{})
	pa := f.personal(alice)
	f.send(alice, pa, "help", "help")
	f.mustContain(f.last(alice), "takeback", "say TEXT", "messages off / on", "name NAME")
	for _, tt := range []struct{ line, want string }{
		{"help say", "Passes TEXT to your opponent"},
		{"help messages", "messages off: your opponents' words"},
		{"help name", "name Alice Liddell sets the name"},
		{"help takeback", "takeback asks your opponent to let you take back"},
		{"help address", "Moves your account"},
	} {
		f.send(alice, pa, "help", tt.line)
		if m := f.last(alice); m.Subject != "bottlepost: "+tt.line {
			t.Errorf("%s: subject %q", tt.line, m.Subject)
		}
		f.mustContain(f.last(alice), tt.want)
	}
}
