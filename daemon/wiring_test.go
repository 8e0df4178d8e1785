package daemon

import (
	"testing"

	"github.com/bottlepost/bottlepost/config"
	"github.com/bottlepost/bottlepost/game"
)

// TestDefaultLimitsAgree: the game service's limits are written in one place,
// game.DefaultLimits: config's defaults leave them at 0, which the game
// service fills with its own, and config.example.toml spells out those.
func TestDefaultLimitsAgree(t *testing.T) {
	if got := gameLimits(config.Defaults().Limits); got != (game.Limits{}) {
		t.Errorf("config's defaults set the game service's limits %+v: they are game.DefaultLimits' to say", got)
	}
	example, err := config.Load("../config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	if got := gameLimits(example.Limits); got != game.DefaultLimits {
		t.Errorf("config.example.toml's limits %+v, the game service's defaults %+v", got, game.DefaultLimits)
	}
}
