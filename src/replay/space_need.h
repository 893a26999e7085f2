#pragma once
// How much free space a replay onto a regular file (or a loop device over
// one) takes from its file system, found before anything is written: a
// sparse file (--create, or one with holes) gets blocks allocated as the
// replay writes into its holes, and
// a replay that runs out of them stops with ENOSPC half-way, after filling
// the file system under every other program on it.
//
// The need is counted in the file system's allocation units (its fragment
// size): a write allocates every unit it touches that holds no data. Space a
// trim frees (a punched hole) is not counted back: a file system may return
// it late (ext4 once its journal commits), and a replay's writes run beside
// its trims (a replay with trims ran out of space at a point where the trims
// before it, in trace order, had freed enough). So the need is the units the
// replay's writes reach in the file's holes, times the unit; extent metadata
// is not counted.
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "replay/request_stream.h"
#include "trace/record.h"

namespace ftlsim::replay {

// Byte ranges [start, end) of a file that hold data (allocated).
using Extents = std::vector<std::pair<uint64_t, uint64_t>>;

// Bytes the replay's writes allocate: the units they reach that held no
// data. REQUIRES unit > 0. `allocated`: the file's data before the replay
// (empty for a file to be created; any order, may overlap). `origin`: the
// file's byte the target's byte 0 is (a loop device's offset in its backing
// file; 0 for a file). Throws InputError as the request stream does
// (malformed records).
[[nodiscard]] uint64_t space_need(std::span<const trace::Record> records, const StreamGeometry& geo, uint64_t unit,
                                  const Extents& allocated, uint64_t origin = 0);

// The data of the file open as `fd` (SEEK_DATA and SEEK_HOLE), in order;
// where the file system cannot tell holes, the whole file. Throws
// SystemError naming `path`.
[[nodiscard]] Extents data_extents(int fd, const std::string& path);

// Upper bound of space_need() from the scan alone: every write
// I/O allocating every unit it touches.
[[nodiscard]] uint64_t space_need_bound(const StreamScan& scan, uint64_t unit);

}  // namespace ftlsim::replay
