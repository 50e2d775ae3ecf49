//! Tests of the Operation render.

