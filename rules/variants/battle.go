package variants

import "github.com/bottlepost/bottlepost/rules/battle"

func init() { register(battle.Variant) }
