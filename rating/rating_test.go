package rating

import (
	"math"
	"testing"
)

// TestGlickmanExample reproduces the worked example of Glickman's "Example
// of the Glicko-2 system": a player rated 1500, RD 200, volatility 0.06
// beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300).
// The paper prints 1464.06, RD 151.52, volatility 0.05999 after the
// period. It rounds its intermediate values (g, E, v, Δ, μ′, φ′) to three
// or four decimals before the next step uses them; exact arithmetic gives
// 1464.0507, RD 151.5165, volatility 0.0599960, each within one unit of the
// last digit the paper prints.
func TestGlickmanExample(t *testing.T) {
	r := Rating{Rating: 1500, RD: 200, Volatility: 0.06}
	got := Period(r, []Game{
		{Opponent: Rating{Rating: 1400, RD: 30, Volatility: 0.06}, Score: 1},
		{Opponent: Rating{Rating: 1550, RD: 100, Volatility: 0.06}, Score: 0},
		{Opponent: Rating{Rating: 1700, RD: 300, Volatility: 0.06}, Score: 0},
	})
	t.Logf("after the period: rating %.6f, RD %.6f, volatility %.8f", got.Rating, got.RD, got.Volatility)
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64 // one unit of the last digit the paper prints
	}{
		{"rating", got.Rating, 1464.06, 0.01},
		{"RD", got.RD, 151.52, 0.01},
		{"volatility", got.Volatility, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %v, the paper has %v (±%v)", c.name, c.got, c.want, c.tol)
		}
	}
}

// TestGlickmanIntermediates checks the steps of the same example against
// the paper's intermediate values: v = 1.7785, Δ = −0.4834, σ′ = 0.05999,
// φ* = 1.152862, φ′ = 0.8722, μ′ = −0.2069. The paper works from g and E
// rounded to four and three decimals, so its v and Δ are off the exact
// ones in the fourth decimal: each is compared within 0.001.
func TestGlickmanIntermediates(t *testing.T) {
	mu, phi := 0.0, 200/Scale
	opps := [][3]float64{{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}}
	var vinv, sum float64
	for _, o := range opps {
		g := gFactor(o[1] / Scale)
		e := expected(mu, (o[0]-Start)/Scale, g)
		vinv += g * g * e * (1 - e)
		sum += g * (o[2] - e)
	}
	v := 1 / vinv
	delta := v * sum
	sigma := volatility(phi, 0.06, v, delta)
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	newPhi := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	newMu := mu + newPhi*newPhi*sum
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"v", v, 1.7785}, {"Δ", delta, -0.4834}, {"σ′", sigma, 0.05999},
		{"φ*", phiStar, 1.152862}, {"φ′", newPhi, 0.8722}, {"μ′", newMu, -0.2069},
	} {
		if math.Abs(c.got-c.want) > 0.001 {
			t.Errorf("%s = %v, the paper has %v", c.name, c.got, c.want)
		}
	}
}

func TestIdle(t *testing.T) {
	base := Rating{Rating: 1623.5, RD: 80, Volatility: 0.06}
	tests := []struct {
		name    string
		r       Rating
		periods int64
		wantRD  float64
	}{
		{"no time", base, 0, 80},
		{"negative time changes nothing", base, -3, 80},
		{"one day", base, 1, math.Sqrt(80*80 + (0.06*Scale)*(0.06*Scale))},
		{"a hundred days", base, 100, math.Sqrt(80*80 + 100*(0.06*Scale)*(0.06*Scale))},
		{"capped at 350", base, 100000, MaxRD},
		{"a new player stays at 350", New(), 30, MaxRD},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.r.Idle(tt.periods)
			if math.Abs(got.RD-tt.wantRD) > 1e-9 {
				t.Errorf("RD %v, want %v", got.RD, tt.wantRD)
			}
			if got.Rating != tt.r.Rating || got.Volatility != tt.r.Volatility {
				t.Errorf("rating or volatility changed: %+v → %+v", tt.r, got)
			}
		})
	}
	// n days at once is n single days, as the step-6 growth it stands for.
	step := base
	for range 40 {
		step = Period(step, nil)
	}
	if at := base.Idle(40); math.Abs(at.RD-step.RD) > 1e-9 {
		t.Errorf("40 idle days at once: RD %v; one by one: %v", at.RD, step.RD)
	}
}

func TestShown(t *testing.T) {
	tests := []struct {
		name          string
		before, after Rating
		show, change  string
	}{
		{"provisional", New(), Rating{Rating: 1662.31, RD: 290.3}, "1500?", "+162"},
		{"established loss", Rating{Rating: 1523.4, RD: 60}, Rating{Rating: 1505.5, RD: 59}, "1523", "−17"},
		{"110 is established", Rating{Rating: 1499.5, RD: 110}, Rating{Rating: 1500.4, RD: 109}, "1500", "±0"},
		{"just above 110", Rating{Rating: 1499.49, RD: 110.0001}, Rating{Rating: 1499.49, RD: 109}, "1499?", "±0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.before.String(); got != tt.show {
				t.Errorf("shown %q, want %q", got, tt.show)
			}
			if got := Change(tt.before, tt.after); got != tt.change {
				t.Errorf("change %q, want %q", got, tt.change)
			}
		})
	}
}

// TestDeterministic: the same inputs give the same bits, and a period's
// result does not depend on anything but its arguments.
func TestDeterministic(t *testing.T) {
	r := Rating{Rating: 1712.25, RD: 93.5, Volatility: 0.0612}
	gs := []Game{{Opponent: Rating{Rating: 1650, RD: 140, Volatility: 0.06}, Score: 0.5}}
	a, b := Period(r, gs), Period(r, gs)
	if math.Float64bits(a.Rating) != math.Float64bits(b.Rating) || math.Float64bits(a.RD) != math.Float64bits(b.RD) ||
		math.Float64bits(a.Volatility) != math.Float64bits(b.Volatility) {
		t.Errorf("two runs differ: %+v and %+v", a, b)
	}
}

// TestExtremes: lopsided results, huge rating gaps and the largest RDs
// still give finite values, a win never lowers a rating and a loss never
// raises it.
func TestExtremes(t *testing.T) {
	for _, r := range []Rating{New(), {Rating: 3000, RD: 30, Volatility: 0.06}, {Rating: 100, RD: 350, Volatility: 0.2}, {Rating: 1500, RD: 30, Volatility: 0.03}} {
		for _, o := range []Rating{New(), {Rating: 3500, RD: 20, Volatility: 0.06}, {Rating: -500, RD: 350, Volatility: 0.1}} {
			for _, s := range []float64{0, 0.5, 1} {
				got := Period(r, []Game{{Opponent: o, Score: s}})
				for _, x := range []float64{got.Rating, got.RD, got.Volatility} {
					if math.IsNaN(x) || math.IsInf(x, 0) {
						t.Fatalf("%+v v %+v score %v: %+v", r, o, s, got)
					}
				}
				if s == 1 && got.Rating < r.Rating || s == 0 && got.Rating > r.Rating {
					t.Errorf("%+v v %+v score %v: rating went the wrong way: %+v", r, o, s, got)
				}
			}
		}
	}
}
