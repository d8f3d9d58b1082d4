/* The report's chart as SVG, written by hand: a log-log scatter plot needs
 * no plotting library (see the comment in report_svg.c). Pure and
 * deterministic like report_md.
 *
 * With energy: energy per sort against time per sort, one mark per measured
 * configuration coloured by language, with its 95% intervals as whiskers and
 * dashed lines of constant net power. Without energy (pending): time per
 * sort against size, one panel per input order across the whole width (the
 * legend in a row under the title), one line per language and algorithm,
 * each median with its 95% interval as a bar.
 *
 * Both axes are logarithmic, so a figure at or below 0 has no place on
 * them: such a median gets no mark and the line breaks there (it never
 * joins the neighbours across it), an interval reaching 0 or below is drawn
 * to the plot's edge, and a note under the plot names every configuration
 * not drawn, or not drawn whole, with the reason (not measured, no energy
 * reading, median time or energy per sort at or below 0, interval reaching
 * 0 or below). */
#ifndef GREENBENCH_REPORT_SVG_H
#define GREENBENCH_REPORT_SVG_H

#include "greenbench/analysis.h"
#include "greenbench/error.h"

#include <stddef.h>

/* Writes the chart for a into *out (malloc'd, NUL-terminated, *len without
 * the NUL). Errors: -ENOMEM. With no measured configuration the chart says
 * so instead of plotting. */
GB_MUST_USE int gb_report_svg(const gb_analysis *a, char **out, size_t *len, gb_err *err);

#endif
