"""The referee: game rules, clocks, the match loop, records and adjudication."""
