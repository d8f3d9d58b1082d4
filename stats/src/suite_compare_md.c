/* compare.md of suite campaigns (suite_compare.h): the campaigns, the
 * configurations left out, and each later campaign against the first,
 * configuration by configuration, in the cells of the study's compare.md
 * (compare_internal.h). Pure; "C" locale; names through md_text/md_code. */
#include "greenbench/suite_compare.h"

#include "compare_internal.h"
#include "report_md_internal.h"
#include "textbuf.h"

static void name(gbi_textbuf *b, const gb_suite_comparison *c, size_t m) {
  gbi_tb_puts(b, " ");
  md_text(b, c->campaigns[m].name);
}

static void campaigns(gbi_textbuf *b, const gb_suite_comparison *c) {
  gbi_tb_puts(b, "| column | machine label | campaign label | records | suite hash | energy | "
                 "configurations measured |\n|---|---|---|---|---|---|---|\n");
  for (size_t m = 0; m < c->n; m++) {
    const gb_scmp_campaign *x = &c->campaigns[m];
    const gb_srec_meta *meta = &x->a->records->meta;
    size_t measured = 0;
    for (size_t i = 0; i < x->a->n_configs; i++) {
      measured += x->a->configs[i].measured;
    }
    gbi_tb_puts(b, "|");
    name(b, c, m);
    gbi_tb_puts(b, " | ");
    md_text(b, meta->has_label ? meta->machine_label : "(none)");
    gbi_tb_puts(b, " | ");
    md_text(b, x->campaign);
    gbi_tb_puts(b, " | ");
    md_code(b, x->path);
    gbi_tb_printf(b, " | %s | ", meta->suite_hash);
    if (x->a->energy) {
      gbi_tb_puts(b, "measured");
    } else {
      gbi_tb_puts(b, "not measured: ");
      md_text(b, meta->energy_reason);
    }
    gbi_tb_printf(b, " | %zu of %zu |\n", measured, x->a->n_configs);
  }
}

static void left_out(gbi_textbuf *b, const gb_suite_comparison *c) {
  bool any = false;
  for (size_t m = 0; m < c->n; m++) {
    const gb_scmp_campaign *x = &c->campaigns[m];
    if (x->n_left_out == 0) {
      continue;
    }
    if (!any) {
      gbi_tb_puts(b, "\nLeft out, as not every one of the campaigns holds them:\n\n");
      any = true;
    }
    gbi_tb_puts(b, "-");
    name(b, c, m);
    gbi_tb_puts(b, ":");
    for (size_t i = 0; i < x->n_left_out; i++) {
      char key[3 * GB_SREC_PARAMS_MAX];
      gb_scmp_config_label(x->a, x->left_out[i], key, sizeof key);
      gbi_tb_puts(b, i ? ", " : " ");
      md_text(b, key);
    }
    gbi_tb_puts(b, "\n");
  }
}

static void change_table(gbi_textbuf *b, const gb_suite_comparison *c, size_t m) {
  const gb_suite_analysis *first = c->campaigns[0].a, *x = c->campaigns[m].a;
  gbi_tb_puts(b, "\n###");
  name(b, c, m);
  gbi_tb_puts(b, " /");
  name(b, c, 0);
  gbi_tb_puts(b, "\n\n");
  if (!first->energy || !x->energy) {
    gbi_tb_puts(b, "Energy was not measured in");
    name(b, c, first->energy ? m : 0);
    gbi_tb_puts(b, ": time ratios only.\n\n");
  }
  gbi_tb_puts(b, "| configuration | time per repetition | energy per repetition | net power |\n"
                 "|---|---|---|---|\n");
  for (size_t i = 0; i < c->n_configs; i++) {
    const gb_cmp_change *ch = &c->configs[i].change[m];
    char key[3 * GB_SREC_PARAMS_MAX];
    gb_scmp_config_label(first, c->configs[i].config[0], key, sizeof key);
    gbi_tb_puts(b, "| ");
    md_text(b, key);
    gbi_tb_puts(b, " |");
    gbi_cmp_md_change_cell(b, &ch->ratio.time, ch->time_reading, ch->computed);
    gbi_cmp_md_change_cell(b, &ch->ratio.energy, ch->energy_reading,
                           ch->computed && ch->energy);
    gbi_cmp_md_change_cell(b, &ch->ratio.power, ch->ratio.reading, ch->computed && ch->energy);
    gbi_tb_puts(b, "\n");
  }
}

int gb_suite_compare_md(const gb_suite_comparison *c, char **out, size_t *len, gb_err *err) {
  gbi_tb_numeric loc;
  gbi_tb_c_numeric(&loc);
  gbi_textbuf b;
  gbi_tb_init(&b);
  gbi_tb_printf(&b, "# greenbench: %zu campaigns of suite ", c->n);
  md_text(&b, c->campaigns[0].a->records->meta.suite_name);
  gbi_tb_printf(&b,
                " compared\n\n"
                "Bootstrap: %zu resamples per configuration, seed %llu; margin of the "
                "readings %g; net power by the %s estimator (ADR 0015). A configuration is "
                "(language, workload, parameters); only those every campaign holds are "
                "compared.\n\n",
                c->opts.resamples, (unsigned long long)c->opts.seed, c->opts.margin,
                gb_power_estimator_name(c->opts.power_estimator));
  campaigns(&b, c);
  left_out(&b, c);
  gbi_tb_puts(&b, "\n## Against");
  name(&b, c, 0);
  gbi_tb_puts(&b, ": ratios per configuration\n\n");
  gbi_cmp_md_change_intro(&b, &c->opts);
  for (size_t m = 1; m < c->n; m++) {
    change_table(&b, c, m);
  }
  gbi_tb_restore_numeric(&loc);
  return gbi_tb_take(&b, out, len, "compare.md", err);
}
