//! cel-go's interpreter (placeholder).
