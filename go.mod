module github.com/clearhouse/clearhouse

go 1.26.8
