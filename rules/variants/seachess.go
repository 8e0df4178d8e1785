package variants

import "github.com/bottlepost/bottlepost/rules/seachess"

func init() { register(seachess.Variant) }
