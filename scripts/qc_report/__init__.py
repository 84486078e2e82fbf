"""The report's pages (scripts/plot_report.py draws them): base, plots, overview, cards."""
import matplotlib

matplotlib.use("Agg")
