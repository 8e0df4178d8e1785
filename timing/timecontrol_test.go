package timing

import (
	"testing"
)

func TestTimeControl(t *testing.T) {
	tests := []struct {
		in, out, describe string
		ok                bool
	}{
		{"3d", "3d", "3 days per move", true},
		{"10/50D", "10/50d", "10 moves in 50 days, unused time carried over", true},
		{"1d+2d", "1d+2d", "1 day per move, plus 2 days grace", true},
		{"0d", "", "", false},
		{"3h", "", "", false},
		{"0/5d", "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			tc, err := ParseTimeControl(tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("error %v, want ok=%v", err, tt.ok)
			}
			if tt.ok && (tc.String() != tt.out || tc.Describe() != tt.describe) {
				t.Errorf("got %q %q", tc.String(), tc.Describe())
			}
		})
	}
	// ICCF: the unused remainder is carried into the next period.
	tc, _ := ParseTimeControl("2/10d")
	c := tc.NewClock()
	c = tc.Spend(c, 3*Day)
	c = tc.Spend(c, 4*Day)
	if c.Budget != 13*Day || c.MovesLeft != 2 {
		t.Errorf("after two moves in 7 of 10 days: %+v, want 13 days for 2 moves", c)
	}
}

func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"3d", "10/50d+2d", "0d", "999/999d+99d", " 1D "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := ParseTimeControl(s)
		if err != nil {
			return
		}
		again, err := ParseTimeControl(tc.String())
		if err != nil || again != tc {
			t.Fatalf("%q → %q does not read back (%v, %+v)", s, tc.String(), err, again)
		}
	})
}
