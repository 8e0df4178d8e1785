package record

import (
	"fmt"

	"github.com/bottlepost/bottlepost/rules"
)

// Ply is one move of a replayed game, as every viewer records it.
type Ply struct {
	Index  int // ply number from 0
	Side   rules.Side
	Text   string // the move as submitted
	Secret bool
	Report *rules.Report
	Err    error // the move was not legal on replay
}

// Replay plays a game's moves (texts as submitted) from its start and returns every ply
// with its report; a move that does not replay stops the replay with its error in the last
// Ply. The error is the rules' own, for a start they cannot set up.
func Replay(v rules.Variant, opt rules.Options, moves []string) (rules.State, []Ply, error) {
	line := make([]Step, len(moves))
	for i, text := range moves {
		line[i] = Step{Text: text}
	}
	return ReplayLine(v, opt, line)
}

// Step is one step of a game's line as its log records it: a move (its text
// as submitted), or a takeback of the move before it that stands.
type Step struct {
	Text     string
	Takeback bool
}

// ReplayLine plays a game's line from its start: each move must be legal
// where it was played, and a takeback returns the game to the position
// before the move that stood last (there must be one). It returns the final
// state and the plies that stand (their Index the ply each was played at,
// its place in the line that stands);
// a move that does not replay stops the replay with its error in the last
// Ply; a takeback with no move to take back is an error.
func ReplayLine(v rules.Variant, opt rules.Options, line []Step) (rules.State, []Ply, error) {
	final, plies, _, err := replayLine(v, opt, line)
	return final, plies, err
}

// replayLine is ReplayLine that also returns every move's Ply, those taken
// back too, in the order of the line.
func replayLine(v rules.Variant, opt rules.Options, line []Step) (final rules.State, plies, all []Ply, err error) {
	s, err := v.New(opt)
	if err != nil {
		return nil, nil, nil, err
	}
	states := []rules.State{s}
	for i, step := range line {
		if step.Takeback {
			if len(plies) == 0 {
				return s, plies, all, fmt.Errorf("step %d takes back a move, but no move stands", i+1)
			}
			plies, states = plies[:len(plies)-1], states[:len(states)-1]
			s = states[len(states)-1]
			continue
		}
		p := Ply{Index: len(plies), Side: s.ToMove(), Text: step.Text}
		m, err := s.Parse(step.Text)
		var next rules.State
		if err == nil {
			next, p.Report, err = s.Apply(m)
		}
		if err != nil {
			p.Err = err
			return s, append(plies, p), append(all, p), nil
		}
		p.Secret = p.Report.Secret
		plies, all = append(plies, p), append(all, p)
		s = next
		states = append(states, s)
	}
	return s, plies, all, nil
}
