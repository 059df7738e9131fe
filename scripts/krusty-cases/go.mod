module flotilla.dev/scripts/krusty-cases

go 1.26.0
