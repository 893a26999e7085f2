#include "sim/report.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <iterator>
#include <utility>

#include "core/atomic_file.h"
#include "core/build_identity.h"
#include "core/csv_field.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/json_writer.h"
#include "core/units.h"
#include "core/version.h"
#include "fdp/fdp_settings.h"
#include "ftl/ftl_settings.h"
#include "timing/timing_report.h"

namespace ftlsim::sim {
namespace {

constexpr uint64_t kSlot = ftl::kSlotBytes;

// A CSV made row by row and handed to `emit` in chunks of about kChunk
// bytes, so that a file of millions of rows (id_timeseries.csv: a row per
// placement ID per timeseries row) is never held whole in memory.
class CsvChunks {
 public:
  static constexpr size_t kChunk = size_t{1} << 16;
  explicit CsvChunks(std::function<void(std::string_view)> emit) : emit_(std::move(emit)) {}
  CsvChunks(const CsvChunks&) = delete;
  CsvChunks& operator=(const CsvChunks&) = delete;
  template <class... Args>
  void row(fmt::format_string<Args...> f, Args&&... args) {
    fmt::format_to(std::back_inserter(buf_), f, std::forward<Args>(args)...);
    if (buf_.size() >= kChunk) flush();
  }
  // Hands over what is left; call once at the end.
  void flush() {
    emit_(std::string_view(buf_.data(), buf_.size()));
    buf_.clear();
  }

 private:
  std::function<void(std::string_view)> emit_;
  fmt::memory_buffer buf_;
};

void timeseries_rows(const SimResult& r, CsvChunks& out) {
  out.row("host_bytes,trace_time_ns,waf,interval_waf,free_units,valid_ratio,gc_bytes,unit_erases,marker\n");
  for (const TimeseriesRow& row : r.timeseries) {
    out.row("{},{},{:.6f},{:.6f},{},{:.6f},{},{},{}\n", row.host_bytes, row.trace_time_ns, row.waf, row.interval_waf,
            row.free_units, row.valid_ratio, row.gc_bytes, row.erases,
            row.marker ? fmt::format("{}", *row.marker) : std::string());
  }
  out.flush();
}

// --id-series: id_timeseries.csv, per timeseries row each placement ID that
// wrote (kind pid; kind precondition: the data --precondition wrote), then
// each handle (kind handle):
//   host_bytes,kind,id,name,id_host_bytes,id_gc_bytes,waf_share
// waf_share = (id_host_bytes + id_gc_bytes) / host_bytes: a row's shares of
// one kind sum to the WAF at that row.
void id_timeseries_rows(const RunDescription& run, const SimResult& r, CsvChunks& out) {
  const fdp::FdpConfig fdp = fdp::effective_config(run.placement);
  out.row("host_bytes,kind,id,name,id_host_bytes,id_gc_bytes,waf_share\n");
  for (const IdSeriesRow& row : r.id_timeseries) {
    std::string_view kind = "pid";
    std::string id = std::to_string(row.id), name;
    if (row.kind == IdSeriesRow::Kind::kPid) {
      const auto it = run.pid_names.find(static_cast<trace::PlacementId>(row.id));
      if (it != run.pid_names.end()) name = it->second;
    } else if (row.kind == IdSeriesRow::Kind::kPrecondition) {
      kind = "precondition";
      id.clear();
    } else {
      kind = "handle";
      name = fdp::handle_name(fdp, row.id);
    }
    const double share = row.host_bytes == 0 ? 0.0
                                             : static_cast<double>(row.id_host_bytes + row.id_gc_bytes) /
                                                   static_cast<double>(row.host_bytes);
    out.row("{},{},{},{},{},{},{:.6f}\n", row.host_bytes, kind, id, csv_field(name), row.id_host_bytes, row.id_gc_bytes,
            share);
  }
  out.flush();
}

// Writes a CSV made by `rows` to `path` atomically, a chunk at a time.
template <class Rows>
void write_csv_atomically(const std::string& path, Rows&& rows) {
  AtomicFile f(path);
  CsvChunks out([&f](std::string_view chunk) { f.write(chunk); });
  rows(out);
  f.commit();
}

void write_marker(JsonWriter& j, const std::optional<uint64_t>& m) {
  if (m) {
    j.value(*m);
  } else {
    j.null();
  }
}

}  // namespace

// The geometry simulated: with --logical fit: its logical size is the fitted one.
ftl::Geometry simulated_geometry(const RunDescription& run, const SimResult& r) {
  return r.fitted_geometry ? *r.fitted_geometry : run.config.geometry;
}

std::string_view precondition_name(Precondition p) {
  switch (p) {
    case Precondition::kSeq: return "seq";
    case Precondition::kRandom: return "random";
    case Precondition::kTrace: return "trace";
    case Precondition::kNone: break;
  }
  return "none";
}

std::string summary_json(const RunDescription& run, const SimResult& r) {
  const ftl::Geometry g = simulated_geometry(run, r);
  const ftl::GcConfig& gc = run.config.gc;
  const ftl::FtlStats& s = r.ftl;
  JsonWriter j;
  j.begin_object();
  j.field("ftlsim_version", std::string(kVersion));
  j.field("ftlsim_sources", std::string(source_digest()));
  j.field("trace", run.trace_path);
  if (!run.config_key.empty()) j.field("config_key", run.config_key);
  j.key("config").begin_object();
  j.field("preset", run.preset.empty() ? std::string("custom") : run.preset);
  j.key("geometry").begin_object();
  j.field("channels", g.channels);
  j.field("luns_per_channel", g.luns_per_channel);
  j.field("planes_per_lun", g.planes_per_lun);
  j.field("blocks_per_plane", g.blocks_per_plane);
  j.field("pages_per_block", g.pages_per_block);
  j.field("page_bytes", g.page_bytes);
  j.field("lines", g.lines());
  j.field("line_bytes", g.slots_per_line() * kSlot);
  j.field("physical_bytes", g.physical_bytes());
  j.field("logical_bytes", g.logical_bytes);
  j.field("over_provisioning", g.over_provisioning());
  j.key("fit");  // --logical fit:P%: the trace's footprint fills this share of the logical space
  if (run.options.fit) {
    j.begin_object();
    j.field("fill", *run.options.fit);
    j.field("footprint_bytes", r.fit_footprint_slots * kSlot);
    // The over-provisioning asked for (the preset's or --op; null with
    // --pages or --blocks): geometry.over_provisioning is at least this,
    // by whole pages per block.
    if (run.options.fit_op) {
      j.field("over_provisioning_wanted", *run.options.fit_op);
    } else {
      j.key("over_provisioning_wanted").null();
    }
    j.end_object();
  } else {
    j.null();
  }
  j.end_object();
  j.field("rules", run.rules);    // --rules
  j.field("sizing", run.sizing);  // --sizing
  j.key("gc").begin_object();
  j.field("victim", ftl::ftl_setting_text("victim", run.config));
  j.field("thres_pcent", gc.thres_pcent);
  j.field("thres_pcent_high", gc.thres_pcent_high);
  // In units (lines, or RUs under FDP) per reclaim group, as the engine applies them.
  j.field("thres_units", gc.thres_units(r.units_per_group));
  j.field("thres_units_high", gc.thres_units_high(r.units_per_group));
  j.field("d_choices", gc.d_choices);
  j.field("seed", gc.seed);
  j.field("forced_check", ftl::ftl_setting_text("gc-check", run.config));
  j.field("rg_gc", ftl::ftl_setting_text("rg-gc", run.config));
  j.field("gc_order", ftl::ftl_setting_text("gc-order", run.config));
  j.field("trigger", ftl::ftl_setting_text("gc-trigger", run.config));
  j.key("forced_passes");  // --forced-passes: null = FEMU's bound
  if (gc.forced_passes != 0) {
    j.value(uint64_t{gc.forced_passes});
  } else {
    j.null();
  }
  j.end_object();
  j.field("trim_partial", ftl::ftl_setting_text("trim-partial", run.config));
  j.field("trim_range", ftl::ftl_setting_text("trim-range", run.config));
  const fdp::FdpConfig fdp = fdp::effective_config(run.placement);
  j.key("fdp").begin_object();
  j.field("placement", run.placement.placement.text);
  j.field("reclaim_groups", fdp.reclaim_groups);
  j.field("ru_bytes", r.ru_bytes);
  j.field("reclaim_units", r.units);
  j.field("handles", fdp.handles);
  // The FDP rules (docs/model.md), as their settings print them; null
  // without FDP (the line path).
  const auto word = [&](std::string_view key, std::string_view setting) {
    j.key(key);
    if (fdp.isolated_gc) {
      j.value(fdp::fdp_setting_text(setting, fdp));
    } else {
      j.null();
    }
  };
  word("ruh_type", "ruh-type");
  word("pi_gc", "pi-gc");
  word("ii_gc", "ii-gc");
  word("ru_open", "ru-open");
  word("rg_split", "rg-split");
  word("rg_of", "rg-of");
  word("declined", "declined");
  word("pid_format", "pid-format");
  word("write_spill", "write-spill");
  word("gc_spill", "gc-spill");
  j.field("single", fdp::fdp_setting_text("single", fdp));
  j.key("ru_time_limit_ns");  // null: no limit
  if (fdp.ru_time_limit_ns != 0) {
    j.value(fdp.ru_time_limit_ns);
  } else {
    j.null();
  }
  j.end_object();
  j.field("wrap", run.options.wrap);
  j.field("interval_bytes", r.interval_bytes);
  j.end_object();

  j.field("records", r.records);
  j.field("host_pages", s.host_slots);
  j.field("gc_pages", s.gc_slots);
  j.field("nand_pages", s.nand_slots());
  j.field("page_bytes_accounted", kSlot);
  j.field("host_bytes", s.host_slots * kSlot);
  j.field("nand_bytes", s.nand_slots() * kSlot);
  j.field("waf", s.waf());
  j.field("erases", s.unit_erases * r.blocks_per_unit);
  j.field("unit_erases", s.unit_erases);
  j.key("gc_onset");
  if (r.gc_onset) {
    j.begin_object();
    j.field("host_bytes", r.gc_onset->host_bytes);
    j.field("trace_time_ns", r.gc_onset->trace_time_ns);
    if (r.gc_onset->sim_time_ns) j.field("sim_time_ns", *r.gc_onset->sim_time_ns);
    j.key("marker");
    write_marker(j, r.gc_onset->marker);
    j.end_object();
  } else {
    j.null();
  }
  j.key("gc").begin_object();
  j.field("passes", s.gc_passes);
  j.field("forced_passes", s.gc_forced_passes);
  j.field("background_passes", s.gc_background_passes);
  j.field("background_declined", s.gc_background_declined);
  j.end_object();
  j.key("erase_count_per_block").begin_object();
  j.field("min", r.erase_min);
  j.field("mean", r.erase_mean);
  j.field("max", r.erase_max);
  j.end_object();
  j.key("requests").begin_object();
  j.field("writes", r.requests.writes);
  j.field("reads", r.requests.reads);
  j.field("trims", r.requests.trims);
  j.field("flushes", r.requests.flushes);
  j.field("markers", r.requests.markers);
  j.field("read_pages", r.requests.read_slots);
  j.field("unmapped_read_pages", r.requests.unmapped_read_slots);
  j.field("rmw_pages", r.requests.rmw_slots);
  j.field("rmw_read_pages", r.requests.rmw_read_slots);
  j.field("trimmed_pages", s.trimmed_slots);
  j.field("partial_trim_pages", r.requests.partial_trim_slots);
  j.field("wrapped_requests", r.requests.wrapped_requests);
  j.field("trim_extra_pages", r.requests.trim_extra_slots);
  j.end_object();
  j.key("reset_record");  // --reset-at: the marker record every counter counts from (null: none)
  if (r.reset_record) {
    j.value(*r.reset_record);
  } else {
    j.null();
  }
  // --precondition: what was written before the trace (the counters above start after it).
  j.key("precondition");
  if (r.precondition) {
    const PreconditionCounts& pc = *r.precondition;
    j.begin_object();
    j.field("mode", std::string(precondition_name(run.options.precondition)));
    j.field("host_bytes", pc.host_slots * kSlot);
    j.field("gc_bytes", pc.gc_slots * kSlot);
    j.field("gc_passes", pc.gc_passes);
    j.field("unit_erases", pc.unit_erases);
    j.field("mapped_bytes", pc.mapped_slots * kSlot);
    j.end_object();
  } else {
    j.null();
  }
  // --repeat N > 1: each pass's share of the counters (the last is the steady state).
  j.key("passes");
  if (!r.passes.empty()) {
    j.begin_array();
    for (const PassCounts& p : r.passes) {
      j.begin_object();
      j.field("host_bytes", p.host_slots * kSlot);
      j.field("gc_bytes", p.gc_slots * kSlot);
      j.field("unit_erases", p.unit_erases);
      j.field("waf", p.waf());
      j.end_object();
    }
    j.end_array();
  } else {
    j.null();
  }
  // FDP statistics log (0x22) and events as a device reports them.
  j.key("fdp_stats").begin_object();
  // HBMW and MBMW count the bytes the host sent, as FEMU's nvme_do_write_fdp
  // does (nlb x secsz per write), plus GC's whole slots; the log's WAF
  // therefore differs from the slot WAF on unaligned writes.
  const uint64_t mbmw = r.host_sent_bytes + s.gc_slots * kSlot;
  j.field("hbmw", r.host_sent_bytes);
  j.field("mbmw", mbmw);
  j.field("mbe", s.unit_erases * r.ru_bytes);
  j.field("waf", r.host_sent_bytes == 0 ? 0.0 : static_cast<double>(mbmw) / static_cast<double>(r.host_sent_bytes));
  j.key("events").begin_object();
  j.field("invalid_placement_id", r.invalid_pid_requests);
  j.field("ru_not_fully_written", s.units_not_fully_written);
  j.field("ru_time_limit_exceeded", s.unit_time_limit_exceeded);
  j.end_object();
  j.field("ru_unwritten_bytes", s.unwritten_slots * kSlot);  // left unwritten in RUs closed early
  j.end_object();
  j.key("handles").begin_array();
  for (const fdp::HandleStats& h : r.handles) {
    j.begin_object();
    j.field("name", h.name);
    j.field("host_bytes", h.host_bytes);
    j.field("gc_in_bytes", h.gc_in_bytes);
    j.field("gc_out_bytes", h.gc_out_bytes);
    j.field("hbmw", h.hbmw_bytes);
    j.field("mbmw", h.mbmw_bytes);
    j.field("mbe", h.mbe_bytes);
    j.field("units_in_use", h.units_in_use);
    j.field("ruamw_bytes", h.ru_available_bytes);
    j.field("waf_share", h.waf_share);
    j.end_object();
  }
  j.end_array();
  j.key("host_bytes_by_placement_id").begin_array();
  for (const auto& [pid, bytes] : r.host_bytes_by_pid) {
    j.begin_object();
    j.field("pid", static_cast<uint32_t>(pid));
    const auto it = run.pid_names.find(pid);
    j.field("name", it == run.pid_names.end() ? std::string() : it->second);
    j.field("bytes", bytes);
    j.end_object();
  }
  j.end_array();
  j.key("end").begin_object();
  j.field("free_units", r.free_units_end);
  j.field("valid_pages", r.mapped_slots_end);
  j.end_object();
  if (r.timing) timing::write_timing_json(j, *r.timing);
  j.end_object();
  return j.str();
}

std::string timeseries_csv(const SimResult& r) {
  std::string text;
  CsvChunks out([&text](std::string_view chunk) { text += chunk; });
  timeseries_rows(r, out);
  return text;
}

std::string summary_text(const RunDescription& run, const SimResult& r, SettingShow show) {
  const ftl::Geometry g = simulated_geometry(run, r);
  const ftl::GcConfig& gc = run.config.gc;
  const ftl::FtlStats& s = r.ftl;
  std::string out;
  out += fmt::format("trace      {} ({} records)\n", escape_for_terminal(run.trace_path), r.records);
  out += fmt::format("device     {}: {} raw, {} logical (OP {:.1f}%), {} lines of {}\n",
                     run.preset.empty() ? "custom" : run.preset, format_bytes(g.physical_bytes()),
                     format_bytes(g.logical_bytes), 100.0 * g.over_provisioning(), g.lines(),
                     format_bytes(g.slots_per_line() * kSlot));
  out += fmt::format("gc         {} victims; background at <= {} free {} ({}%), forced at <= {} ({}%){}\n",
                     ftl::victim_policy_name(gc.victim), gc.thres_units(r.units_per_group),
                     r.units_per_group == g.lines() ? "lines" : "units per group", gc.thres_pcent,
                     gc.thres_units_high(r.units_per_group), gc.thres_pcent_high,
                     gc.watermark ? "; watermark trigger (not FEMU's): passes until above it, no 1/8 rule" : "");
  if (run.options.fit) {
    out += fmt::format(
        "fit        the trace's footprint, {} in {} pages, remapped densely to fill {:g}% of the "
        "logical space\n",
        format_bytes(r.fit_footprint_slots * kSlot), r.fit_footprint_slots, *run.options.fit * 100.0);
    // Pages per block are whole: the physical size moves in steps of a
    // page in every block, so a small footprint gets more spare than asked.
    const double wanted = run.options.fit_op.value_or(g.over_provisioning());
    if (std::abs(100.0 * (g.over_provisioning() - wanted)) >= 0.05) {
      out += fmt::format(
          "fit OP     {:.1f}%, not the {:.1f}% asked (the preset's, or --op): {} pages per block is the fewest "
          "that reach it, and a page per block is {} here (--pages or --blocks sizes the device instead)\n",
          100.0 * g.over_provisioning(), 100.0 * wanted, g.pages_per_block,
          format_bytes(uint64_t{g.lines()} * g.blocks_per_line() * g.slots_per_page() * kSlot));
    }
  }
  const fdp::FdpConfig fdp = fdp::effective_config(run.placement);
  if (fdp.isolated_gc) {
    out += fmt::format("fdp        placement {}, {} handles ({}), {} reclaim group(s) of {}, {} RUs of {}\n",
                       run.placement.placement.text, fdp.handles, fdp::ruh_types_name(fdp.ruh_types),
                       fdp.reclaim_groups, fdp::rg_split_name(fdp.rg_split), r.units, format_bytes(r.ru_bytes));
    out += fmt::format("fdp rules  pi survivors to {}, ii survivors to {}, RUs opened at {}, {}\n",
                       fdp::pi_gc_name(fdp.pi_gc_ru), fdp::ii_gc_name(fdp.ii_gc),
                       fdp.open_at_start ? "start-up" : "first write",
                       fdp.rg_of == fdp::RgOf::kCurrent ? std::string("writes to the current RU")
                                                        : fmt::format("RG from the {}", fdp::rg_of_name(fdp.rg_of)));
  }
  const bool confdp_rule = gc.page_order || gc.forced_passes != 0 || run.config.trim_plus_one ||
                           !fdp.declined_requeue || fdp.pid_confdp || fdp.pid_min_rgif || fdp.single_handle0 ||
                           run.sizing != "lines";
  if (run.rules != "femu" || confdp_rule) {
    out += fmt::format(
        "rules      {}: sizing {}, gc order {}, forced passes {}, declined victims {}, trim range {}, "
        "pid format {}, single on {}\n",
        run.rules, run.sizing, gc.page_order ? "page" : "block",
        gc.forced_passes != 0 ? std::to_string(gc.forced_passes) : std::string("femu"),
        fdp.declined_requeue ? "requeued" : "kept", run.config.trim_plus_one ? "plus-one" : "exact",
        fdp.pid_confdp     ? "confdp"
        : fdp.pid_min_rgif ? "rgif-min"
                           : "rgif",
        fdp.single_handle0 ? "handle 0" : "the line path");
  }
  if (fdp.isolated_gc && fdp.reclaim_groups > 1 && (fdp.spill_writes || fdp.spill_gc)) {
    out += fmt::format(
        "rg spill   to the nearest RG not at its high threshold: {}{}\n",
        fdp.spill_writes ? "a write request still at it after its forced passes" : "",
        fdp.spill_gc ? std::string(fdp.spill_writes ? "; " : "") + "each GC copy of a forced victim with < 1/10 invalid"
                     : std::string());
  }
  if (gc.forced_check_per_slot || gc.every_pool || run.config.trim_keeps_partial) {
    out += fmt::format("non-FEMU   {}{}{}\n", gc.forced_check_per_slot ? show_setting("gc-check", show) + " page " : "",
                       gc.every_pool ? show_setting("rg-gc", show) + " every " : "",
                       run.config.trim_keeps_partial ? show_setting("trim-partial", show) + " keep" : "");
  }
  if (fdp.ru_time_limit_ns != 0) {
    out += fmt::format("ru limit   an RU is closed {} of trace time after its first host write, full or not\n",
                       timing::format_ns(static_cast<double>(fdp.ru_time_limit_ns)));
  }
  if (r.precondition) {
    const PreconditionCounts& pc = *r.precondition;
    out += fmt::format(
        "precond    {}: {} written ({} pages) before the trace, {} GC copies; {} mapped; counters "
        "zeroed\n",
        precondition_name(run.options.precondition), format_bytes(pc.host_slots * kSlot), pc.host_slots,
        format_bytes(pc.gc_slots * kSlot), format_bytes(pc.mapped_slots * kSlot));
  }
  if (!r.passes.empty()) {
    out += fmt::format("repeat     {} passes of the trace; WAF per pass", r.passes.size());
    for (const PassCounts& p : r.passes) out += fmt::format(" {:.4f}", p.waf());
    out += "\n";
  }
  out += fmt::format("host       {} written ({} pages), {} reads, {} trims\n", format_bytes(s.host_slots * kSlot),
                     s.host_slots, r.requests.reads, r.requests.trims);
  out +=
      fmt::format("gc copies  {} ({} pages) in {} passes\n", format_bytes(s.gc_slots * kSlot), s.gc_slots, s.gc_passes);
  out += fmt::format("WAF        {:.4f}\n", s.waf());
  out += fmt::format("erases     {} blocks ({} {}); per block min/mean/max {}/{:.2f}/{}\n",
                     s.unit_erases * r.blocks_per_unit, s.unit_erases,
                     r.units_per_group == g.lines() && r.blocks_per_unit == g.blocks_per_line() ? "lines" : "RUs",
                     r.erase_min, r.erase_mean, r.erase_max);
  if (r.gc_onset) {
    out += fmt::format(
        "gc onset   after {} host writes ({:.1f}% of the trace's), t = {:.3f} s", format_bytes(r.gc_onset->host_bytes),
        s.host_slots == 0
            ? 0.0
            : 100.0 * static_cast<double>(r.gc_onset->host_bytes) / static_cast<double>(s.host_slots * kSlot),
        static_cast<double>(r.gc_onset->trace_time_ns) / 1e9);
    if (r.gc_onset->sim_time_ns) {
      out += fmt::format(" in the trace, {:.3f} s simulated", static_cast<double>(*r.gc_onset->sim_time_ns) / 1e9);
    }
    if (r.gc_onset->marker) out += fmt::format(", marker {}", *r.gc_onset->marker);
    out += "\n";
  } else {
    out += "gc onset   never (GC did not run)\n";
  }
  if (fdp.isolated_gc) {
    // FEMU's per-RUH counters: HBMW (bytes the host sent), MBMW (those plus GC copies out of its RUs),
    // MBE, RUs in use and the room left in its open host RUs (RUAMW).
    out += "handle     hbmw         gc in        mbmw         mbe          RUs  ruamw        WAF share\n";
    for (const fdp::HandleStats& h : r.handles) {
      if (h.host_bytes == 0 && h.gc_in_bytes == 0 && h.units_in_use == 0) continue;
      out += fmt::format("  {:<8} {:>12} {:>12} {:>12} {:>12} {:>4}  {:>12} {:.4f}\n", h.name,
                         format_bytes(h.hbmw_bytes), format_bytes(h.gc_in_bytes), format_bytes(h.mbmw_bytes),
                         format_bytes(h.mbe_bytes), h.units_in_use, format_bytes(h.ru_available_bytes), h.waf_share);
    }
  }
  if (r.invalid_pid_requests != 0) {
    out += fmt::format(
        "warning    {} writes carried a placement ID with no handle (FDP event: invalid placement "
        "ID); written through ruh0\n",
        r.invalid_pid_requests);
  }
  if (s.units_not_fully_written != 0) {
    out += fmt::format(
        "fdp events {} RUs closed before they were full (RU not fully written; {} by the RU time "
        "limit), leaving {} unwritten\n",
        s.units_not_fully_written, s.unit_time_limit_exceeded, format_bytes(s.unwritten_slots * kSlot));
  }
  if (r.requests.rmw_slots != 0) {
    out += fmt::format("rmw        {} partial-page writes ({} needed a read)\n", r.requests.rmw_slots,
                       r.requests.rmw_read_slots);
  }
  if (r.requests.wrapped_requests != 0) {
    out += fmt::format("wrapped    {} requests folded into the device ({})\n", r.requests.wrapped_requests,
                       show_setting("wrap", show));
  }
  if (r.timing) out += timing::timing_text(*r.timing);
  const double mps = r.wall_seconds > 0 ? static_cast<double>(s.host_slots) / r.wall_seconds / 1e6 : 0.0;
  out += fmt::format("simulated  in {:.3f} s ({:.1f} M host pages/s", r.wall_seconds, mps);
  if (r.timing && r.wall_seconds > 0) {
    out += fmt::format(", {:.2f} M NAND operations/s timed",
                       static_cast<double>(r.timing->nand_ops()) / r.wall_seconds / 1e6);
  }
  out += ")\n";
  return out;
}

const std::vector<std::string>& output_names() {
  static const std::vector<std::string> names = {"summary.json", "timeseries.csv", "id_timeseries.csv", "events.csv",
                                                 "latency_cdf.csv"};
  return names;
}

void write_outputs(const std::string& dir, const RunDescription& run, const SimResult& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw SystemError(fmt::format("cannot create output directory {}: {}", dir, ec.message()));
  write_file_atomically(dir + "/summary.json", summary_json(run, r));
  write_csv_atomically(dir + "/timeseries.csv", [&](CsvChunks& out) { timeseries_rows(r, out); });
  if (run.options.id_series) {
    write_csv_atomically(dir + "/id_timeseries.csv", [&](CsvChunks& out) { id_timeseries_rows(run, r, out); });
  }
  if (r.timing) {
    write_file_atomically(dir + "/events.csv", r.timing->events.csv());
    write_file_atomically(dir + "/latency_cdf.csv", timing::latency_cdf_csv(*r.timing));
  }
}

}  // namespace ftlsim::sim
