package game

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseCommands(t *testing.T) {
	tests := []struct {
		name    string
		lines   []string
		want    []Command
		errs    []string // reasons, in order
		ignored []string
	}{
		{"new with every option", []string{"NEW  Seachess vs <Bob@Example.org> as Black rules standard time 10/50d+2d"},
			[]Command{{Verb: VerbNew, Variant: "seachess", Opponent: "Bob@Example.org", Color: "black", Rules: "standard", Time: "10/50d+2d"}}, nil, nil},
		{"open challenge", []string{"new chess"}, []Command{{Verb: VerbNew, Variant: "chess"}}, nil, nil},
		{"new without variant", []string{"new"}, nil, []string{"say which variant"}, nil},
		{"new with a bad address", []string{"new chess vs bob"}, nil, []string{`"bob" is not a mail address`}, nil},
		{"new with a bad colour", []string{"new chess as green"}, nil, []string{"choose a colour"}, nil},
		{"new with an unknown option", []string{"new chess speed fast"}, nil, []string{`"speed" is not an option of new`}, nil},
		{"new option without value", []string{"new chess vs"}, nil, []string{`"vs" needs a value`}, nil},
		{"bare moves and numbered moves", []string{"e4", "1. e4", "12... Nf6", "O-O", "0-0-0", "Ce5 - M (h)", "Aa-A", "40. Aa - A"},
			[]Command{{Verb: VerbMove, Arg: "e4"}, {Verb: VerbMove, Arg: "e4", Number: "1."}, {Verb: VerbMove, Arg: "Nf6", Number: "12..."}, {Verb: VerbMove, Arg: "O-O"}, {Verb: VerbMove, Arg: "0-0-0"}, {Verb: VerbMove, Arg: "Ce5 - M (h)"},
				{Verb: VerbMove, Arg: "Aa-A"}, {Verb: VerbMove, Arg: "Aa - A", Number: "40."}}, nil, nil},
		{"the ways players number moves", []string{"12… Nf6", "1. ... e5", "1. … e5", "7.e2–e4", "move 12... Nf6", "08. Nf5", "3.. d5", "99999999999999999999. e4"},
			[]Command{{Verb: VerbMove, Arg: "Nf6", Number: "12..."}, {Verb: VerbMove, Arg: "e5", Number: "1..."}, {Verb: VerbMove, Arg: "e5", Number: "1..."}, {Verb: VerbMove, Arg: "e2–e4", Number: "7."},
				{Verb: VerbMove, Arg: "Nf6", Number: "12..."}, {Verb: VerbMove, Arg: "Nf5", Number: "8."}, {Verb: VerbMove, Arg: "d5", Number: "3..."}, {Verb: VerbMove, Arg: "e4"}}, nil, nil},
		{"move keyword", []string{"move   Nb1-c3"}, []Command{{Verb: VerbMove, Arg: "Nb1-c3"}}, nil, nil},
		{"chatter is ignored", []string{"Hi Bob,", "Thanks for the lovely game yesterday evening!", "e4"},
			[]Command{{Verb: VerbMove, Arg: "e4"}}, nil, []string{"Hi Bob,", "Thanks for the lovely game yesterday evening!"}},
		{"simple verbs", []string{"accept", "Decline", "board", "history 12", "draw", "draw offer", "resign", "games", "help", "help Baltic"},
			[]Command{{Verb: VerbAccept}, {Verb: VerbDecline}, {Verb: VerbBoard}, {Verb: VerbHistory, Game: 12}, {Verb: VerbDraw}, {Verb: VerbDraw}, {Verb: VerbResign}, {Verb: VerbGames}, {Verb: VerbHelp}, {Verb: VerbHelp, Variant: "baltic"}}, nil, nil},
		{"board with junk", []string{"board please now"}, nil, []string{"board takes no arguments"}, nil},
		{"vacation", []string{"vacation 7 days", "vacation 1 day", "vacation 3"},
			[]Command{{Verb: VerbVacation, Days: 7}, {Verb: VerbVacation, Days: 1}, {Verb: VerbVacation, Days: 3}}, nil, nil},
		{"vacation out of range", []string{"vacation 0 days", "vacation 400 days", "vacation soon"}, nil,
			[]string{"from 1 to 366", "from 1 to 366", "from 1 to 366"}, nil},
		{"observe and audit", []string{"observe 12", "observe #7", "audit bp-3", "observe"},
			[]Command{{Verb: VerbObserve, Game: 12}, {Verb: VerbObserve, Game: 7}, {Verb: VerbAudit, Game: 3}}, []string{"write observe GAME"}, nil},
		{"adjudicate", []string{"adjudicate 4 1/2-1/2 both flags fell", "adjudicate 4 2-0 nonsense", "adjudicate 4"},
			[]Command{{Verb: VerbAdjudicate, Game: 4, Result: "1/2-1/2", Reason: "both flags fell"}}, []string{"the result must be", "write adjudicate GAME RESULT REASON"}, nil},
		{"timezone", []string{"timezone Europe/Berlin"}, []Command{{Verb: VerbTimezone, Arg: "Europe/Berlin"}}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmds, errs, ignored := ParseCommands(tt.lines)
			for i := range cmds {
				cmds[i].Line = ""
			}
			if !reflect.DeepEqual(cmds, tt.want) {
				t.Errorf("commands:\n got %+v\nwant %+v", cmds, tt.want)
			}
			if len(errs) != len(tt.errs) {
				t.Fatalf("errors %v, want %v", errs, tt.errs)
			}
			for i, e := range errs {
				if !strings.Contains(e.Reason.String(), tt.errs[i]) {
					t.Errorf("error %d = %q, want %q", i, e.Reason, tt.errs[i])
				}
			}
			if !reflect.DeepEqual(ignored, tt.ignored) {
				t.Errorf("ignored %q, want %q", ignored, tt.ignored)
			}
		})
	}
}

func FuzzParseCommands(f *testing.F) {
	for _, s := range []string{"new chess vs a@b.c as white time 3d", "e4", "12... Nf6", "adjudicate 1 1-0 x", "vacation 3 days", "help seachess", "observe bp-3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cmds, errs, ignored := ParseCommands(strings.Split(s, "\n"))
		if len(cmds)+len(errs)+len(ignored) > strings.Count(s, "\n")+1 {
			t.Fatalf("more results than lines for %q", s)
		}
		for _, c := range cmds {
			if c.Verb == "" || (c.Verb == VerbMove && strings.TrimSpace(c.Arg) == "") {
				t.Fatalf("empty command from %q: %+v", s, c)
			}
		}
	})
}
