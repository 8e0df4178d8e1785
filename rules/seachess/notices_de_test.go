package seachess

import (
	"slices"
	"testing"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// TestNoticesInGerman: the notices of a move are messages each viewer reads
// in their language, phrased for them as in English, the rulings kept.
func TestNoticesInGerman(t *testing.T) {
	tests := []struct {
		name, pos, side, move string
		extra                 []string
		v                     rules.Viewer
		want                  string
	}{
		{"mine, mover", "K@g1 k@g12 B@d3 m@d4", "w", "Bd3-d4", nil, rules.ViewWhite, "Ihr Boot ist auf d4 auf eine Mine gelaufen (S3.3)"},
		{"mine, its owner", "K@g1 k@g12 B@d3 m@d4", "w", "Bd3-d4", nil, rules.ViewBlack, "Boot von Weiß ist auf d4 auf Ihre Mine gelaufen (S3.3)"},
		{"mine, referee", "K@g1 k@g12 B@d3 m@d4", "w", "Bd3-d4", nil, rules.ViewReferee, "Boot von Weiß ist auf d4 auf eine Mine von Schwarz gelaufen (S3.3)"},
		{"mine, public", "K@g1 k@g12 B@d3 m@d4", "w", "Bd3-d4", nil, rules.ViewPublic, "eine Mine auf d4 hat zerstört: Boot von Weiß (S3.3)"},
		{"check by a submarine, public", "K@g1 k@g12 U@g8", "w", "sSg8-h10", []string{"left=Ug8:3"}, rules.ViewPublic, "Schwarz steht im Schach durch ein U-Boot (S5.8)"},
		{"check by a submarine, checked", "K@g1 k@g12 U@g8", "w", "sSg8-h10", []string{"left=Ug8:3"}, rules.ViewBlack, "Sie stehen im Schach durch ein U-Boot (S5.8)"},
		{"hidden move, opponent", "K@g1 k@g12 U@g8", "w", "sSg8-h10", []string{"left=Ug8:3"}, rules.ViewBlack, "Weiß hat verborgen gezogen (S10.1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, rep := step(t, setup(t, tt.pos, tt.side, tt.extra...), tt.move)
			if got := rep.NoticesIn(tt.v, lang.German); !slices.Contains(got, tt.want) {
				t.Errorf("%v reads %q, want %q", tt.v, got, tt.want)
			}
		})
	}
	if m := lang.Missed(); len(m) > 0 {
		t.Errorf("German messages missing: %q", m)
	}
}
