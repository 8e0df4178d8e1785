package variants

import "github.com/bottlepost/bottlepost/rules/submachine"

func init() { register(submachine.Variant) }
