package variants

import "github.com/bottlepost/bottlepost/rules/chess"

func init() { register(chess.Variant) }
