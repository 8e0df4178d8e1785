package baltic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
)

// stateV1 is the serialised state: JSON with the fields in this order.
// The board is a position string's board field. Version 2 (written since
// the piece list) may write a stack with its covered disc ("[Sc]");
// version 1, read as before, never does, so its stacks' covered discs are
// not known.
type stateV1 struct {
	V      int    `json:"v"`
	Rules  string `json:"rules"`
	Board  string `json:"board"`
	First  string `json:"first"`
	Ply    int    `json:"ply"`
	Points [2]int `json:"points"`
	Start  string `json:"start"`
	Seed   uint64 `json:"seed"`
}

var sideWords = [2]string{"white", "black"}

// MarshalBinary writes the state as version-2 JSON.
func (s *State) MarshalBinary() ([]byte, error) {
	return json.Marshal(stateV1{
		V: 2, Rules: s.rs.String(), Board: boardText(&s.cells), First: sideWords[s.first],
		Ply: s.ply, Points: s.points, Start: startNames[s.start], Seed: s.seed,
	})
}

// unmarshal reads what MarshalBinary wrote and validates it.
func unmarshal(data []byte) (rules.State, error) {
	var in stateV1
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("baltic: unmarshal: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("baltic: unmarshal: trailing data")
	}
	if in.V != 1 && in.V != 2 {
		return nil, fmt.Errorf("baltic: unmarshal: format version %d is not known (want 1 or 2)", in.V)
	}
	if in.V == 1 && strings.Contains(in.Board, "[") {
		return nil, fmt.Errorf("baltic: unmarshal: a version-1 board has no bracketed stacks")
	}
	rs, err := parseRuleset(in.Rules)
	if err != nil || in.Rules == "" {
		return nil, fmt.Errorf("baltic: unmarshal: ruleset %q", in.Rules)
	}
	s := &State{rs: rs}
	if err := parseRanks(in.Board, 8, &s.cells); err != nil {
		return nil, fmt.Errorf("baltic: unmarshal: board %v", err)
	}
	switch in.First {
	case "white":
		s.first = rules.White
	case "black":
		s.first = rules.Black
	default:
		return nil, fmt.Errorf("baltic: unmarshal: first %q", in.First)
	}
	st, ok := parseStart(in.Start)
	if !ok {
		return nil, fmt.Errorf("baltic: unmarshal: start %q", in.Start)
	}
	if in.Ply < 0 || in.Ply > 1<<30 {
		return nil, fmt.Errorf("baltic: unmarshal: ply %d", in.Ply)
	}
	s.start, s.seed, s.ply, s.points = st, in.Seed, in.Ply, in.Points
	s.toMove = s.first ^ rules.Side(s.ply&1)
	if err := s.finish(); err != nil {
		return nil, fmt.Errorf("baltic: unmarshal: %v", err)
	}
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("baltic: unmarshal: %v", err)
	}
	return s, nil
}
