// Verilator testbench for socmon's ESP NoC RTL oracle (tools/esp_noc_rtl/, format described in
// tests/esp/noc_rtl/README.md). Drives the local ports of noc_mesh.sv (ROWS x COLS of ESP's
// lookahead_router_wrapper) from a packet trace and writes what the RTL did: every tile's
// monitor counts, the drain cycle and each packet's timing.
//
//   tb TRACE OUT     OUT "-" is stdout; a line of figures for the speed report goes to stderr
//
// Exit 0 on success, 1 if the RTL misbehaves (a flit out of order, at the wrong tile, no drain),
// 2 on a bad trace or bad arguments.

#include "Vnoc_mesh.h"
#include "verilated.h"

#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#ifndef MESH_ROWS
#error "MESH_ROWS and MESH_COLS must be defined (the mesh the model was built for)"
#endif

namespace {

constexpr int kRows = MESH_ROWS;
constexpr int kCols = MESH_COLS;
constexpr int kTiles = kRows * kCols;
constexpr int kFlit = 66;
constexpr int kResetCycles = 8;
constexpr long kMaxCycles = 50000000;  // no drain by then: the RTL deadlocked (or the trace is bad)

struct Packet {
    long cycle;
    int src, dst, flits;
    long head_in = -1, tail_out = -1;
};

struct Stall {
    int tile;
    long from, to;
};

struct Trace {
    std::string name;
    int rows = 0, cols = 0, plane = 0;
    std::vector<Packet> pkts;
    std::vector<Stall> stalls;
};

[[noreturn]] void die(int code, const std::string &msg) {
    std::fprintf(stderr, "esp_noc_rtl tb: %s\n", msg.c_str());
    std::exit(code);
}

long to_long(const std::string &w, const std::string &where) {
    char *end = nullptr;
    errno = 0;
    long v = std::strtol(w.c_str(), &end, 10);
    if (w.empty() || *end || errno) die(2, where + ": '" + w + "' is not an integer");
    return v;
}

Trace read_trace(const std::string &path) {
    std::ifstream in(path);
    if (!in) die(2, "cannot read trace '" + path + "': " + std::strerror(errno));
    Trace tr;
    std::string base = path.substr(path.find_last_of('/') + 1);
    if (base.size() > 4 && base.compare(base.size() - 4, 4, ".txt") == 0) base.resize(base.size() - 4);
    tr.name = base;
    std::string line;
    int n = 0;
    bool have_mesh = false;
    while (std::getline(in, line)) {
        ++n;
        std::string where = path + ":" + std::to_string(n);
        auto hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        std::istringstream ss(line);
        std::vector<std::string> w;
        for (std::string x; ss >> x;) w.push_back(x);
        if (w.empty()) continue;
        if (!have_mesh) {
            if (w[0] != "mesh" || w.size() != 3) die(2, where + ": first line must be 'mesh ROWS COLS'");
            tr.rows = (int)to_long(w[1], where);
            tr.cols = (int)to_long(w[2], where);
            have_mesh = true;
            continue;
        }
        if (w[0] == "plane") {
            if (w.size() != 2) die(2, where + ": 'plane P'");
            tr.plane = (int)to_long(w[1], where);
            if (tr.plane < 0 || tr.plane > 5) die(2, where + ": plane " + w[1] + " outside 0..5");
        } else if (w[0] == "stall") {
            if (w.size() != 4) die(2, where + ": 'stall TILE FROM TO'");
            Stall s{(int)to_long(w[1], where), to_long(w[2], where), to_long(w[3], where)};
            if (s.tile < 0 || s.tile >= tr.rows * tr.cols || s.from > s.to) die(2, where + ": bad stall");
            tr.stalls.push_back(s);
        } else {
            if (w.size() != 4) die(2, where + ": 'CYCLE SRC DST FLITS'");
            Packet p;
            p.cycle = to_long(w[0], where);
            p.src = (int)to_long(w[1], where);
            p.dst = (int)to_long(w[2], where);
            p.flits = (int)to_long(w[3], where);
            int tiles = tr.rows * tr.cols;
            if (p.src < 0 || p.src >= tiles || p.dst < 0 || p.dst >= tiles || p.src == p.dst ||
                p.flits < 1 || p.flits > 256 || p.cycle < 0)
                die(2, where + ": bad packet");
            if (!tr.pkts.empty() && p.cycle < tr.pkts.back().cycle) die(2, where + ": cycles not sorted");
            tr.pkts.push_back(p);
        }
    }
    if (!have_mesh) die(2, "trace '" + path + "' has no mesh line");
    if (tr.rows != kRows || tr.cols != kCols)
        die(2, "trace '" + path + "' is a " + std::to_string(tr.rows) + "x" + std::to_string(tr.cols) +
                   " mesh; this model was built for " + std::to_string(kRows) + "x" + std::to_string(kCols));
    if (tr.pkts.empty()) die(2, "trace '" + path + "' has no packets");
    return tr;
}

// A flit: bits 65..64 the preamble (head, tail), 63..0 the rest.
struct Flit {
    unsigned pre;  // 2 bits: head << 1 | tail
    uint64_t low;
};

template <typename W>
void put_flit(W &vec, int tile, const Flit &f) {
    int lsb = tile * kFlit;
    for (int b = 0; b < 64; ++b) {
        int bit = lsb + b, word = bit / 32, off = bit % 32;
        uint32_t m = 1u << off;
        if ((f.low >> b) & 1) vec[word] |= m; else vec[word] &= ~m;
    }
    for (int b = 0; b < 2; ++b) {
        int bit = lsb + 64 + b, word = bit / 32, off = bit % 32;
        uint32_t m = 1u << off;
        if ((f.pre >> b) & 1) vec[word] |= m; else vec[word] &= ~m;
    }
}

template <typename W>
Flit get_flit(const W &vec, int tile) {
    int lsb = tile * kFlit;
    Flit f{0, 0};
    for (int b = 0; b < 64; ++b) {
        int bit = lsb + b;
        if ((vec[bit / 32] >> (bit % 32)) & 1) f.low |= uint64_t(1) << b;
    }
    for (int b = 0; b < 2; ++b) {
        int bit = lsb + 64 + b;
        if ((vec[bit / 32] >> (bit % 32)) & 1) f.pre |= 1u << b;
    }
    return f;
}

// Bit i of a port: Verilator gives a narrow port as an integer, a wide one as 32-bit words.
template <typename T>
bool get_bit(const T &v, int i) {
    if constexpr (std::is_integral_v<T>) return (v >> i) & 1;
    else return (v[i / 32] >> (i % 32)) & 1;
}

// Flit k of packet idx. Head: create_header's layout for a 64-bit NoC with 4-bit coordinates
// (source y, x, destination y, x, message 0, reserved = idx, routing at the source); body and
// tail: idx in bits 63..32, k in 31..0.
Flit make_flit(const Packet &p, long idx, int k) {
    unsigned head = k == 0, tail = k == p.flits - 1;
    Flit f{(head << 1) | tail, 0};
    if (!head) {
        f.low = (uint64_t(idx) << 32) | uint32_t(k);
        return f;
    }
    uint64_t sy = p.src / kCols, sx = p.src % kCols, dy = p.dst / kCols, dx = p.dst % kCols;
    unsigned route;  // one-hot L E W S N
    if (sx < dx) route = 0x08;
    else if (sx > dx) route = 0x04;
    else if (sy < dy) route = 0x02;
    else route = 0x01;
    f.low = (sy << 60) | (sx << 56) | (dy << 52) | (dx << 48) | (uint64_t(0) << 43) |
            ((uint64_t(idx) & ((uint64_t(1) << 38) - 1)) << 5) | route;
    return f;
}

double cpu_seconds() {
    rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) die(2, "usage: tb TRACE OUT   (OUT - for stdout)");
    Trace tr = read_trace(argv[1]);
    const long npk = (long)tr.pkts.size();

    std::vector<std::vector<long>> queue(kTiles);  // each tile's packets, trace order
    for (long i = 0; i < npk; ++i) queue[tr.pkts[i].src].push_back(i);
    std::vector<size_t> qpos(kTiles, 0);            // index of the head packet in queue[t]
    std::vector<int> sent(kTiles, 0);               // flits of the head packet offered so far
    std::vector<long> rx_pkt(kTiles, -1);           // packet a sink is receiving
    std::vector<int> rx_flit(kTiles, 0);            // its next flit
    std::vector<long> inject(kTiles, 0);
    std::vector<std::vector<long>> qfull(kTiles, std::vector<long>(5, 0));

    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(1, argv);
    auto top = std::make_unique<Vnoc_mesh>(ctx.get());

    // Reset: the wrapper's rst is active low; 8 clock cycles, then released.
    top->clk = 0;
    top->rst_n = 0;
    for (int w = 0; w < (int)(sizeof(top->local_data_in) / sizeof(top->local_data_in[0])); ++w)
        top->local_data_in[w] = 0;
    using Bits = std::remove_reference_t<decltype(top->local_void_in)>;  // one bit per tile
    Bits all_tiles = 0;
    for (int t = 0; t < kTiles; ++t) all_tiles |= Bits(1) << t;
    top->local_void_in = all_tiles;
    top->local_stop_in = 0;
    top->eval();
    for (int i = 0; i < kResetCycles; ++i) {
        top->clk = 1; top->eval();
        top->clk = 0; top->eval();
    }
    top->rst_n = 1;
    top->eval();

    const double t0 = cpu_seconds();
    long delivered = 0, cycle = 0;
    const Flit idle{0, 0};
    for (;; ++cycle) {
        if (cycle >= kMaxCycles) die(1, tr.name + ": no drain after " + std::to_string(kMaxCycles) + " cycles");
        // Inputs: each source offers its next flit when it may and the FIFO is not full.
        Bits void_in = 0, stop_in = 0;
        for (int t = 0; t < kTiles; ++t) {
            bool offer = false;
            if (qpos[t] < queue[t].size()) {
                long idx = queue[t][qpos[t]];
                Packet &p = tr.pkts[idx];
                if ((sent[t] > 0 || p.cycle <= cycle) && !get_bit(top->local_stop_out, t)) {
                    offer = true;
                    if (sent[t] == 0) p.head_in = cycle;
                    put_flit(top->local_data_in, t, make_flit(p, idx, sent[t]));
                    if (++sent[t] == p.flits) { sent[t] = 0; ++qpos[t]; }
                }
            }
            if (!offer) {
                put_flit(top->local_data_in, t, idle);
                void_in |= Bits(1) << t;
            }
            for (const Stall &s : tr.stalls)
                if (s.tile == t && s.from <= cycle && cycle < s.to) stop_in |= Bits(1) << t;
        }
        top->local_void_in = void_in;
        top->local_stop_in = stop_in;
        top->clk = 0;
        top->eval();
        // Sample: ejections and the monitor's signals.
        for (int t = 0; t < kTiles; ++t) {
            bool dvi4 = get_bit(void_in, t);
            bool dvo[5];
            for (int q = 0; q < 5; ++q) {
                dvo[q] = get_bit(top->void_out, t * 5 + q);
            }
            inject[t] += !dvi4;
            for (int q = 0; q < 4; ++q) qfull[t][q] += !dvo[q];
            qfull[t][4] += !(dvo[4] && dvi4);
            if (dvo[4] || get_bit(stop_in, t)) continue;
            Flit f = get_flit(top->local_data_out, t);
            bool head = f.pre & 2, tail = f.pre & 1;
            long idx;
            int k;
            if (head) {
                idx = (long)((f.low >> 5) & ((uint64_t(1) << 38) - 1));
                k = 0;
                if (rx_pkt[t] != -1)
                    die(1, tr.name + ": cycle " + std::to_string(cycle) + ": tile " + std::to_string(t) +
                               " got a head while packet " + std::to_string(rx_pkt[t]) + " was arriving");
                int dy = (int)((f.low >> 52) & 15), dx = (int)((f.low >> 48) & 15);
                if (dy * kCols + dx != t)
                    die(1, tr.name + ": cycle " + std::to_string(cycle) + ": a head for tile " +
                               std::to_string(dy * kCols + dx) + " left at tile " + std::to_string(t));
            } else {
                idx = (long)(f.low >> 32);
                k = (int)(uint32_t)f.low;
                if (idx != rx_pkt[t] || k != rx_flit[t])
                    die(1, tr.name + ": cycle " + std::to_string(cycle) + ": tile " + std::to_string(t) +
                               " got flit " + std::to_string(k) + " of packet " + std::to_string(idx) +
                               ", expected flit " + std::to_string(rx_flit[t]) + " of packet " +
                               std::to_string(rx_pkt[t]));
            }
            if (idx < 0 || idx >= npk || tr.pkts[idx].dst != t || tr.pkts[idx].tail_out != -1)
                die(1, tr.name + ": cycle " + std::to_string(cycle) + ": unexpected packet " +
                           std::to_string(idx) + " at tile " + std::to_string(t));
            if (tail != (k == tr.pkts[idx].flits - 1))
                die(1, tr.name + ": cycle " + std::to_string(cycle) + ": packet " + std::to_string(idx) +
                           ": tail bit wrong on flit " + std::to_string(k));
            if (tail) {
                tr.pkts[idx].tail_out = cycle;
                rx_pkt[t] = -1;
                rx_flit[t] = 0;
                ++delivered;
            } else {
                rx_pkt[t] = idx;
                rx_flit[t] = k + 1;
            }
        }
        if (delivered == npk) break;
        top->clk = 1;
        top->eval();
    }
    const double cpu = cpu_seconds() - t0;
    const long drain = cycle;
    top->final();

    // Figures.
    long flits = 0, traversals = 0;
    std::vector<long> lat;
    for (const Packet &p : tr.pkts) {
        flits += p.flits;
        int hops = std::abs(p.src / kCols - p.dst / kCols) + std::abs(p.src % kCols - p.dst % kCols);
        traversals += (long)p.flits * (hops + 1);
        lat.push_back(p.tail_out - p.head_in);
    }
    std::vector<long> sorted = lat;
    std::sort(sorted.begin(), sorted.end());
    long sum = 0;
    for (long l : lat) sum += l;
    long rank = (99 * npk + 99) / 100;  // ceil(0.99 N)

    FILE *out = std::strcmp(argv[2], "-") == 0 ? stdout : std::fopen(argv[2], "w");
    if (!out) die(2, std::string("cannot write '") + argv[2] + "': " + std::strerror(errno));
    std::fprintf(out, "# ESP NoC RTL oracle output, format 1 (tests/esp/noc_rtl/README.md)\n");
    std::fprintf(out, "trace %s\nmesh %d %d\nplane %d\npackets %ld\nflits %ld\ndrain %ld\n", tr.name.c_str(),
                 kRows, kCols, tr.plane, npk, flits, drain);
    std::fprintf(out, "latency min %ld mean %.3f p99 %ld max %ld\n", sorted.front(), (double)sum / npk,
                 sorted[rank - 1], sorted.back());
    std::fprintf(out, "# tile T inject queue_full N S W E L\n");
    for (int t = 0; t < kTiles; ++t)
        std::fprintf(out, "tile %d %ld %ld %ld %ld %ld %ld\n", t, inject[t], qfull[t][0], qfull[t][1],
                     qfull[t][2], qfull[t][3], qfull[t][4]);
    std::fprintf(out, "# pkt INDEX SRC DST FLITS HEAD_IN TAIL_OUT LATENCY\n");
    for (long i = 0; i < npk; ++i) {
        const Packet &p = tr.pkts[i];
        std::fprintf(out, "pkt %ld %d %d %d %ld %ld %ld\n", i, p.src, p.dst, p.flits, p.head_in, p.tail_out,
                     lat[i]);
    }
    if (out != stdout && std::fclose(out) != 0) die(2, std::string("cannot write '") + argv[2] + "'");
    std::fprintf(stderr, "esp_noc_rtl: %s cycles %ld traversals %ld cpu_s %.6f\n", tr.name.c_str(), drain + 1,
                 traversals, cpu);
    return 0;
}
