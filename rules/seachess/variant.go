package seachess

import (
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// Variant is Seachess, registered under the id "seachess".
var Variant rules.Variant = variant{}

type variant struct{}

// ID is "seachess".
func (variant) ID() string { return "seachess" }

// Name is "Seachess".
func (variant) Name() string { return "Seachess" }

// Sides are White and Black.
func (variant) Sides() [2]string { return sideNames }

// Rulesets: only the standard game.
func (variant) Rulesets() []string { return []string{"standard"} }

// Board is the 128-square sea with its havens (S1.1).
func (variant) Board() *rules.Board { return brd }

// Hidden: mines and submerged submarines are secret (S10).
func (variant) Hidden() bool { return true }

// Help is the players' short guide.
func (variant) Help() string { return help }

const help = `Seachess: checkmate the enemy commando ship (K). 12x12 sea, havens
c1-j2 (White) and c11-j12 (Black) (S1). Rulings S1-S11 decide.
B boat: pawn; 2-4 squares from the start; e.p. only onto rank 3/10;
  promotes on the last rank (=C =T =S =D =A); stuck on a10 etc.: steps
  sideways toward the centre (S2).
C cruiser: rook. Ce5-M lays a hidden mine on its square; reload by
  ending a move in your haven (S3). A mine destroys any piece moving
  onto it; nothing crosses one. You are offered moves across an enemy
  mine you cannot see: the piece stops there and dies (S3.4).
T torpedo boat: rook; Tj5xth7 hits 1-2 squares on a forward diagonal,
  forward = the way it last moved; reload in your haven (S4).
S submarine: knight. Sd1v-e3 dives (needs V>=2 visible turns, stays
  down min(V/2,4) turns); sSe3-f5 moves underwater (hidden);
  sSe3-f5^x surfaces capturing; sSf5^x / sSf5^ surfaces in place (S5).
D destroyer: bishop; takes a submerged submarine it lands on and forces
  up enemy ones next to it orthogonally (S6).
A carrier: 1-2 squares any way, or a blockable horse move. Ad4xag7
  launches its aircraft onto the 3-square outline; then Aaxg1 or Aa-A
  each turn, nothing else moves meanwhile (S7).
K commando ship: king; O-O (with T), O-O-O (with C) (S8).
The referee, who sees everything, judges check (S8.3). You may send a
move that looks like leaving your commando ship in check: a mine or a
submarine you cannot see may shield it, and then it is accepted. If it
is not shielded the referee refuses it, says only that, and you send
another. A commando ship is never captured (S8.4).
Hidden moves reach your opponent as "(h)" (S10). Draws: stalemate,
4th repetition, 75 moves each without capture or boat move (S9).`

// The summary is a message of the catalogs, looked up by its value
// in the reader's language (lang.Lang.Word).
var _ = lang.Keys(help)

// New starts a game: the standard start, or Options.Position in the
// position notation (see StartPosition).
func (variant) New(opt rules.Options) (rules.State, error) {
	if opt.Ruleset != "" && opt.Ruleset != "standard" {
		return nil, lang.Fail("seachess", "unknown ruleset %q (Seachess has only \"standard\")", opt.Ruleset)
	}
	text := strings.TrimSpace(opt.Position)
	if text == "" {
		text = StartPosition
	}
	p, err := parsePosition(text)
	if err != nil {
		return nil, err
	}
	return newState(p, "standard", nil), nil
}

// Unmarshal decodes a state written by MarshalBinary.
func (variant) Unmarshal(data []byte) (rules.State, error) {
	s, err := unmarshal(data)
	if err != nil {
		return nil, err
	}
	return s, nil
}
