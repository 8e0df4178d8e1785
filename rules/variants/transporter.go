package variants

import "github.com/bottlepost/bottlepost/rules/transporter"

func init() { register(transporter.Variant) }
