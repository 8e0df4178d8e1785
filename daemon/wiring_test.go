package daemon

import (
	"testing"

	"github.com/bottlepost/bottlepost/config"
	"github.com/bottlepost/bottlepost/game"
)

// TestDefaultLimitsAgree: config does not import game, so its default
// limits are written out; they must be the game service's own.
func TestDefaultLimitsAgree(t *testing.T) {
	if got := gameLimits(config.Defaults().Limits); got != game.DefaultLimits {
		t.Errorf("config's default limits %+v, the game service's %+v", got, game.DefaultLimits)
	}
}
