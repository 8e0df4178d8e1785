// Package rating is the Glicko-2 rating system, as Glickman describes it in
// "Example of the Glicko-2 system" (Boston University, 2013): a player's
// strength is a rating, a rating deviation (RD: how uncertain the rating
// is) and a volatility (how erratic the player's results are), updated
// once per rating period from the games of that period (Period), with the
// RD growing through periods without games (Idle).
//
// It is pure: no I/O, no clock, no randomness. Its results are a function
// of its arguments alone, computed in one fixed order of float64
// operations, so that the game service, which rates each game as it ends,
// and its recomputation from the archive (bottlepost ratings --rebuild),
// which runs the same code on the same values in the same order, agree to
// the last bit.
package rating

import (
	"fmt"
	"math"
)

// The system's constants (Glickman's step 1 and the conversion of step 2).
const (
	// Scale converts between the rating scale and Glicko-2's own:
	// μ = (r − 1500)/Scale, φ = RD/Scale.
	Scale = 173.7178
	// Tau (τ) constrains the change of the volatility over time.
	Tau = 0.5
	// Epsilon is the convergence tolerance of the volatility's iteration.
	Epsilon = 0.000001
	// Start, StartRD and StartVolatility are a new player's values.
	Start           = 1500.0
	StartRD         = 350.0
	StartVolatility = 0.06
	// MaxRD caps the RD's growth through periods without games.
	MaxRD = 350.0
	// ProvisionalRD is the RD above which a rating is provisional, shown
	// with a question mark.
	ProvisionalRD = 110.0
)

// Rating is a player's Glicko-2 values on the rating scale (1500 for a new
// player), as they stand between rating periods.
type Rating struct {
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
}

// New is the rating of a player who has played no rated game: 1500, RD
// 350, volatility 0.06.
func New() Rating { return Rating{Rating: Start, RD: StartRD, Volatility: StartVolatility} }

// Game is one game of a rating period as the player rated saw it: the
// opponent's values before the period, and the player's score (1 for a
// win, 0.5 for a draw, 0 for a loss).
type Game struct {
	Opponent Rating
	Score    float64
}

// Idle is r after periods rating periods without a game: the RD grows as
// in Glickman's step 6 for each of them, φ ← √(φ² + σ²), that is, after n
// periods, φ ← √(φ² + n·σ²), and is capped at MaxRD. The rating and the
// volatility stay. n ≤ 0 changes nothing.
func (r Rating) Idle(periods int64) Rating {
	if periods <= 0 {
		return r
	}
	// On the rating scale: RD² + n·(σ·Scale)² is (φ² + n·σ²)·Scale².
	s := r.Volatility * Scale
	rd := math.Sqrt(r.RD*r.RD + float64(periods)*(s*s))
	r.RD = math.Min(rd, MaxRD)
	return r
}

// Period is r after one rating period with games (Glickman's steps 2 to
// 8). With no games it is step 6 alone: the RD grows by one period, and
// is not capped (Idle caps).
func Period(r Rating, games []Game) Rating {
	// Step 2: Glicko-2's scale.
	mu := (r.Rating - Start) / Scale
	phi := r.RD / Scale
	sigma := r.Volatility
	if len(games) == 0 {
		r.RD = math.Sqrt(phi*phi+sigma*sigma) * Scale
		return r
	}
	// Steps 3 and 4: the estimated variance v of the rating from the
	// games alone, and the estimated improvement Δ.
	var vinv, sum float64
	for _, gm := range games {
		muJ := (gm.Opponent.Rating - Start) / Scale
		phiJ := gm.Opponent.RD / Scale
		g := gFactor(phiJ)
		e := expected(mu, muJ, g)
		vinv += g * g * e * (1 - e)
		sum += g * (gm.Score - e)
	}
	v := 1 / vinv
	delta := v * sum
	// Step 5: the new volatility.
	sigma = volatility(phi, sigma, v, delta)
	// Step 6: the pre-period RD.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	// Step 7: the new RD and rating.
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu += phi * phi * sum
	// Step 8: back to the rating scale.
	return Rating{Rating: Scale*mu + Start, RD: Scale * phi, Volatility: sigma}
}

// gFactor is Glickman's g(φ) = 1/√(1 + 3φ²/π²).
func gFactor(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// expected is Glickman's E(μ, μⱼ, φⱼ) = 1/(1 + exp(−g(φⱼ)(μ − μⱼ))), g given.
func expected(mu, muJ, g float64) float64 {
	return 1 / (1 + math.Exp(-g*(mu-muJ)))
}

// volatility is step 5: the new volatility σ′, the root of
// f(x) = eˣ(Δ² − φ² − v − eˣ) / (2(φ² + v + eˣ)²) − (x − a)/τ², a = ln σ²,
// found by the Illinois algorithm (regula falsi with the retained end's
// value halved) to within Epsilon.
func volatility(phi, sigma, v, delta float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(Tau*Tau)
	}
	// The bracket: A = a, and B above or below it.
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 {
			k++
		}
		B = a - k*Tau
	}
	fA, fB := f(A), f(B)
	for math.Abs(B-A) > Epsilon {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

// Provisional reports whether the rating is still uncertain: RD above
// ProvisionalRD.
func (r Rating) Provisional() bool { return r.RD > ProvisionalRD }

// Rounded is the rating as shown: rounded to the nearest integer (halves
// away from zero).
func (r Rating) Rounded() int { return int(math.Round(r.Rating)) }

// String is the rating as players read it: rounded, followed by "?" while
// it is provisional ("1523", "1500?").
func (r Rating) String() string {
	if r.Provisional() {
		return fmt.Sprintf("%d?", r.Rounded())
	}
	return fmt.Sprint(r.Rounded())
}

// Change is the change from before to after as players read it, on the
// rounded ratings, so that it adds up with what they are shown: "+18",
// "−18" (with a minus sign, U+2212), "±0".
func Change(before, after Rating) string {
	d := after.Rounded() - before.Rounded()
	switch {
	case d > 0:
		return fmt.Sprintf("+%d", d)
	case d < 0:
		return fmt.Sprintf("−%d", -d)
	}
	return "±0"
}
