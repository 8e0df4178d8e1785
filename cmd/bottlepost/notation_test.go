package main

import (
	"strings"
	"testing"
)

// TestMovesAreReadAsMailReadsThem (issue 37): the moves and board commands
// read move numbers, in every form mail takes, and the ways people type
// moves, as the same game written plainly.
func TestMovesAreReadAsMailReadsThem(t *testing.T) {
	tests := []struct {
		name           string
		typed, plainly []string
	}{
		{"numbers as arguments", []string{"moves", "chess", "1.", "e4", "e5", "2.", "Nf3", "2...", "Nc6"}, []string{"moves", "chess", "e4", "e5", "Nf3", "Nc6"}},
		{"numbers before moves", []string{"moves", "chess", "1.e4", "1...e5", "2. Nf3", "2… Nc6"}, []string{"moves", "chess", "e4", "e5", "Nf3", "Nc6"}},
		{"a number and dots", []string{"moves", "chess", "1. e4", "1. ... e5"}, []string{"moves", "chess", "e4", "e5"}},
		{"dashes and figurines", []string{"board", "chess", "e2–e4", "e7—e5", "♘f3", "♞c6", "b2-b4"}, []string{"board", "chess", "e4", "e5", "Nf3", "Nc6", "b4"}},
		{"a coordinate form names its piece (submachine)", []string{"board", "submachine", "e2-e3", "a11-a10", "Cd1-e2", "a10-a9", "c2c3"},
			[]string{"board", "submachine", "e2-e3", "a11-a10", "Cd1-e2", "a10-a9", "c2-c3"}},
		{"a coordinate form names its piece (seachess)", []string{"board", "seachess", "Bf2-f4", "Bf11-f9", "De1-f2", "Bg11-g9", "d2d4"},
			[]string{"board", "seachess", "Bf2-f4", "Bf11-f9", "De1-f2", "Bg11-g9", "Bd2-d4"}},
		{"a coordinate form names its piece (battle)", []string{"board", "battle", "Sc3-c4", "Sd10-d9", "Cd1-b4", "Se10-e9", "c4d5"},
			[]string{"board", "battle", "Sc3-c4", "Sd10-d9", "Cd1-b4", "Se10-e9", "Sc4-d5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs, code := chessRun(t, tt.typed...)
			want, _, _ := chessRun(t, tt.plainly...)
			if code != 0 || got != want {
				t.Errorf("%v: exit %d %s\n%s\nwant, as %v:\n%s", tt.typed, code, errs, got, tt.plainly, want)
			}
		})
	}
}

// TestMovesAreRefusedWithTheReason (issue 37): a text two moves fit is
// refused with both; the right reason for a promotion without its piece and
// a Transporter move without its letter.
func TestMovesAreRefusedWithTheReason(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a piece letter that is also a file", []string{"moves", "submachine", "e2-e3", "a11-a10", "Cd1-e2", "a10-a9", "C2c3"},
			`move 3. ambiguous move "C2c3": it could be Ce2-c3 or c2-c3; please write it in full`},
		{"a promotion without its piece", []string{"moves", "seachess", "--fen", "4k3/2B5/12/12/12/12/12/12/12/12/8/4K3 w - - 0 1", "Be11-e12"},
			`name the piece it becomes, as in Be11-e12=C (=C, =T, =S, =D or =A) (S2.4)`},
		{"a Transporter move without its letter", []string{"moves", "transporter", "Dc9-b8", "Fc3-d4", "d8-c7"},
			`write the piece letter`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, code := chessRun(t, tt.args...)
			if code != 1 || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d: %s\nwant %q", code, errs, tt.want)
			}
		})
	}
}
