#pragma once
// Who owns a sweep's --out folder.
#include <cstdint>
#include <string>

#include "core/in_place_folder.h"
#include "sweep/sweep_product.h"

namespace ftlsim::sim {

// A sweep's --out folder belongs to one sweep, the one its sweep.csv
// records (every config_id with its config_key). Before anything is written:
//  - absent, or holding nothing but ftlsim staging leftovers: kNew;
//  - holding the same sweep (equal config_ids and config_keys): kResume;
//  - holding another sweep: refused with an InputError that says to use a
//    new folder or --force; with `force`, the earlier sweep's sweep.csv and
//    configuration folders are removed and kReplaced returned;
//  - holding anything else (no sweep.csv, or entries that sweep.csv does not
//    name): refused, --force or not, since it is not a sweep's folder.
// Everything is read and removed through the folder `out` resolved once.
enum class SweepFolder : uint8_t { kNew, kResume, kReplaced };
SweepFolder claim_sweep_folder(const InPlaceFolder& out, const SweepTable& table, bool force);

}  // namespace ftlsim::sim
