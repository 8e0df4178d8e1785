module github.com/bottlepost/bottlepost/bench/movegen

go 1.26.0

require (
	github.com/bottlepost/bottlepost v0.0.0
	github.com/dylhunn/dragontoothmg v0.0.0-20220917014754-e79413b50d93
)

replace github.com/bottlepost/bottlepost => ../..
