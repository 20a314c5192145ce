// Command coldfloor is the part of a dws cold start that the required libraries set:
// a cgo "hello world" that links jsonschema v5 and pg_query_go and does nothing else.
// Their package initialisation runs in every program that imports them (jsonschema
// compiles the draft metaschemas, pg_query_go builds its protobuf descriptors), so
// no dws start can be faster than this; scripts/bench.sh times it beside dws.
package main

// #include <stdio.h>
// static void hello(void) { puts("hello"); }
import "C"

import (
	_ "github.com/pganalyze/pg_query_go/v5"
	_ "github.com/santhosh-tekuri/jsonschema/v5"
)

func main() { C.hello() }
