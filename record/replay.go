package record

import "github.com/bottlepost/bottlepost/rules"

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
	s, err := v.New(opt)
	if err != nil {
		return nil, nil, err
	}
	var plies []Ply
	for i, text := range moves {
		p := Ply{Index: i, Side: s.ToMove(), Text: text}
		m, err := s.Parse(text)
		var next rules.State
		if err == nil {
			next, p.Report, err = s.Apply(m)
		}
		if err != nil {
			p.Err = err
			plies = append(plies, p)
			return s, plies, nil
		}
		p.Secret = p.Report.Secret
		plies = append(plies, p)
		s = next
	}
	return s, plies, nil
}
