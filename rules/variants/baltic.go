package variants

import "github.com/bottlepost/bottlepost/rules/baltic"

func init() { register(baltic.Variant) }
