"""Reports: tables (Markdown, LaTeX, CSV) and figures (PNG, PDF) from stored records."""
