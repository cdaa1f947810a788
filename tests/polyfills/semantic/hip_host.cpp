// The host and host-device fallbacks through the generated header, with a
// HIP oracle's real headers, run on the host. HIP runtime functions the
// fallbacks call are defined here (a definition in the program wins over
// libamdhip64's), so each call is recorded instead of reaching a GPU.
// Written as code looks after `hipport convert`: HIP names, and the CUDA
// names ROCm lacks.
#include <hip/hip_runtime.h>

#include <cmath>
#include <string>
#include <vector>

#include "hipport_polyfills.h"
#include "check.h"

#if HIP_VERSION >= 50700000
#include "bf16_inputs.h"
#endif

namespace {

struct Call {
    std::string name;
    const void* ptr;
    size_t count;
    int device;
    hipStream_t stream;
    int advice;
    int type = -1;  // the location's type, for ROCm 7.2's _v2 functions
    unsigned flags = 0;
};
std::vector<Call> calls;

}  // namespace

extern "C" hipError_t hipMemPrefetchAsync(const void* ptr, size_t count, int device,
                                          hipStream_t stream) {
    calls.push_back({"prefetch", ptr, count, device, stream, 0});
    return hipSuccess;
}

extern "C" hipError_t hipMemAdvise(const void* ptr, size_t count, hipMemoryAdvise advice,
                                   int device) {
    calls.push_back({"advise", ptr, count, device, nullptr, static_cast<int>(advice)});
    return hipSuccess;
}

#if HIP_VERSION >= 70200000
// ROCm 7.2's CUDA 13 signatures, which the overloads call there.
extern "C" hipError_t hipMemPrefetchAsync_v2(const void* ptr, size_t count,
                                             hipMemLocation location, unsigned int flags,
                                             hipStream_t stream) {
    calls.push_back({"prefetch", ptr, count, location.id, stream, 0,
                     static_cast<int>(location.type), flags});
    return hipSuccess;
}

extern "C" hipError_t hipMemAdvise_v2(const void* ptr, size_t count, hipMemoryAdvise advice,
                                      hipMemLocation location) {
    calls.push_back({"advise", ptr, count, location.id, nullptr, static_cast<int>(advice),
                     static_cast<int>(location.type), 0});
    return hipSuccess;
}
#endif

extern "C" hipError_t hipGetDeviceCount(int* count) {
    *count = 2;
    return hipSuccess;
}

namespace {

char data[4096];
hipStream_t const stream = reinterpret_cast<hipStream_t>(0x1234);

bool one_call(const char* name, int device, hipStream_t s = nullptr, int advice = 0) {
    const bool ok = calls.size() == 1 && calls[0].name == name && calls[0].ptr == data + 64 &&
                    calls[0].count == 1024 && calls[0].device == device &&
                    (calls[0].name == "advise" ? calls[0].advice == advice : calls[0].stream == s);
    calls.clear();
    return ok;
}

hipMemLocation location(hipMemLocationType type, int id) {
    hipMemLocation l = {};
    l.type = type;
    l.id = id;
    return l;
}

#if HIP_VERSION >= 70200000
// The location as given, to 7.2's _v2 function (one call).
bool one_v2(const char* name, const hipMemLocation& where, hipStream_t s = nullptr,
            int advice = 0, unsigned flags = 0) {
    const bool ok = calls.size() == 1 && calls[0].type == static_cast<int>(where.type) &&
                    calls[0].flags == flags;
    return one_call(name, where.id, s, advice) && ok;
}

void test_mem_location() {
    using check::expect;
    const hipMemLocation gpu = location(hipMemLocationTypeDevice, 1);
    const hipMemLocation host = location(cudaMemLocationTypeHost, 7);
    expect(cudaMemLocationTypeHost == hipMemLocationTypeHost, "7.2's host type");
    expect(hipMemPrefetchAsync(data + 64, 1024, gpu, 0u, stream) == hipSuccess &&
               one_v2("prefetch", gpu, stream), "prefetch to a device");
    expect(hipMemPrefetchAsync(data + 64, 1024, host, 0u, stream) == hipSuccess &&
               one_v2("prefetch", host, stream), "prefetch to the host");
    expect(hipMemPrefetchAsync(data + 64, 1024, gpu, 0u) == hipSuccess &&
               one_v2("prefetch", gpu, nullptr), "the default stream");
    expect(hipMemPrefetchAsync(data + 64, 1024, gpu, 1u, stream) == hipSuccess &&
               one_v2("prefetch", gpu, stream, 0, 1u), "flags reach ROCm, which checks them");
    expect(hipMemPrefetchAsync(data + 64, 1024, 0, stream) == hipSuccess &&
               one_call("prefetch", 0, stream), "HIP's own signature still reaches HIP");
    expect(hipMemAdvise(data + 64, 1024, hipMemAdviseSetPreferredLocation, gpu) == hipSuccess &&
               one_v2("advise", gpu, nullptr, hipMemAdviseSetPreferredLocation),
           "advice for a device");
    expect(hipMemAdvise(data + 64, 1024, hipMemAdviseSetAccessedBy, host) == hipSuccess &&
               one_v2("advise", host, nullptr, hipMemAdviseSetAccessedBy),
           "advice for the host");
    expect(hipMemAdvise(data + 64, 1024, hipMemAdviseSetReadMostly, 0) == hipSuccess &&
               one_call("advise", 0, nullptr, hipMemAdviseSetReadMostly),
           "HIP's own advice signature");
}

void test_mem_location_numa() {
    using check::expect;
    for (hipMemLocationType type : {cudaMemLocationTypeHostNuma,
                                    cudaMemLocationTypeHostNumaCurrent}) {
        const hipMemLocation numa = location(type, 1);
        expect(hipMemPrefetchAsync(data + 64, 1024, numa, 0u, stream) == hipSuccess &&
                   one_v2("prefetch", numa, stream), "prefetch to a NUMA node (kept)");
        expect(hipMemAdvise(data + 64, 1024, hipMemAdviseSetPreferredLocation, numa) ==
                   hipSuccess && one_v2("advise", numa, nullptr,
                                        hipMemAdviseSetPreferredLocation),
               "advice for a NUMA node (kept)");
    }
}
#else
void test_mem_location() {
    using check::expect;
    const hipMemLocation gpu = location(hipMemLocationTypeDevice, 1);
    const hipMemLocation host = location(cudaMemLocationTypeHost, 7);  // CUDA ignores the id
    expect(hipMemPrefetchAsync(data + 64, 1024, gpu, 0u, stream) == hipSuccess &&
               one_call("prefetch", 1, stream), "prefetch to a device");
    expect(hipMemPrefetchAsync(data + 64, 1024, host, 0u, stream) == hipSuccess &&
               one_call("prefetch", hipCpuDeviceId, stream), "prefetch to the host");
    expect(hipMemPrefetchAsync(data + 64, 1024, gpu, 0u) == hipSuccess &&
               one_call("prefetch", 1, nullptr), "the default stream");
    expect(hipMemPrefetchAsync(data + 64, 1024, gpu, 1u, stream) == hipErrorInvalidValue &&
               calls.empty(), "nonzero flags");
    expect(hipMemPrefetchAsync(data + 64, 1024, location(hipMemLocationTypeInvalid, 0), 0u,
                               stream) == hipErrorInvalidValue && calls.empty(),
           "an invalid location");
    expect(hipMemPrefetchAsync(data + 64, 1024, 0, stream) == hipSuccess &&
               one_call("prefetch", 0, stream), "HIP's own signature still reaches HIP");
    expect(hipMemAdvise(data + 64, 1024, hipMemAdviseSetPreferredLocation, gpu) == hipSuccess &&
               one_call("advise", 1, nullptr, hipMemAdviseSetPreferredLocation),
           "advice for a device");
    expect(hipMemAdvise(data + 64, 1024, hipMemAdviseSetAccessedBy, host) == hipSuccess &&
               one_call("advise", hipCpuDeviceId, nullptr, hipMemAdviseSetAccessedBy),
           "advice for the host");
    expect(hipMemAdvise(data + 64, 1024, hipMemAdviseSetReadMostly, 0) == hipSuccess &&
               one_call("advise", 0, nullptr, hipMemAdviseSetReadMostly),
           "HIP's own advice signature");
}

void test_mem_location_numa() {
    using check::expect;
    for (hipMemLocationType type : {cudaMemLocationTypeHostNuma,
                                    cudaMemLocationTypeHostNumaCurrent}) {
        const hipMemLocation numa = location(type, 1);
        expect(hipMemPrefetchAsync(data + 64, 1024, numa, 0u, stream) == hipSuccess &&
                   one_call("prefetch", hipCpuDeviceId, stream), "prefetch to a NUMA node");
        expect(hipMemAdvise(data + 64, 1024, hipMemAdviseSetPreferredLocation, numa) ==
                   hipSuccess && one_call("advise", hipCpuDeviceId, nullptr,
                                          hipMemAdviseSetPreferredLocation),
               "advice for a NUMA node");
    }
}

#endif

#if HIP_VERSION < 70200000  // 7.2 has the stream attributes: no fallback
void test_stream_access_policy() {
    using check::expect;
    cudaStreamAttrValue value = {};
    value.accessPolicyWindow.base_ptr = data;
    value.accessPolicyWindow.num_bytes = sizeof data;
    value.accessPolicyWindow.hitRatio = 0.6f;
    value.accessPolicyWindow.hitProp = hipAccessPropertyPersisting;
    value.accessPolicyWindow.missProp = hipAccessPropertyStreaming;
    expect(sizeof(cudaStreamAttrValue) == 64, "CUDA's value is 64 bytes");
    expect(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value) ==
               hipSuccess && calls.empty(), "the window is accepted, nothing called");
    cudaStreamAttrValue back;
    std::memset(&back, 0xff, sizeof back);
    expect(cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &back) ==
               hipSuccess && back.accessPolicyWindow.num_bytes == 0 &&
               back.accessPolicyWindow.base_ptr == nullptr &&
               back.accessPolicyWindow.hitRatio == 0.0f, "an empty window reads back");
    expect(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, nullptr) ==
               hipErrorInvalidValue, "a null value");
    expect(cudaStreamGetAttribute(stream, static_cast<cudaStreamAttrID>(8), &back) ==
               hipErrorInvalidValue, "another attribute");
}

#endif

void test_emulation_enums() {
    using check::expect;
    // CUDA 13's library_types.h: the values code may store or compare.
    expect(CUDA_EMULATION_STRATEGY_DEFAULT == 0 && CUDA_EMULATION_STRATEGY_PERFORMANT == 1 &&
               CUDA_EMULATION_STRATEGY_EAGER == 2, "cudaEmulationStrategy's values");
    expect(CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC == 0 &&
               CUDA_EMULATION_MANTISSA_CONTROL_FIXED == 1, "cudaEmulationMantissaControl's values");
    expect(CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT == 0xFFFF &&
               CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NONE == 0 &&
               CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_INFINITY == 1 &&
               CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NAN == 2,
           "cudaEmulationSpecialValuesSupport's values");
    cudaEmulationMantissaControl_t control = CUDA_EMULATION_MANTISSA_CONTROL_FIXED;
    cudaEmulationMantissaControl same = control;
    expect(same == CUDA_EMULATION_MANTISSA_CONTROL_FIXED && sizeof(same) == sizeof(int),
           "the _t names are the same types, int-sized as CUDA's");
}

void test_cusolver_precision_enum() {
    using check::expect;
    // cusolver_common.h: CUDA's values, which code may store or compare.
    expect(CUSOLVER_R_8I == 1201 && CUSOLVER_R_8U == 1202 && CUSOLVER_R_64F == 1203 &&
               CUSOLVER_R_32F == 1204 && CUSOLVER_R_16F == 1205 && CUSOLVER_R_16BF == 1206 &&
               CUSOLVER_R_TF32 == 1207 && CUSOLVER_R_AP == 1208, "the real precisions");
    expect(CUSOLVER_C_8I == 1211 && CUSOLVER_C_8U == 1212 && CUSOLVER_C_64F == 1213 &&
               CUSOLVER_C_32F == 1214 && CUSOLVER_C_16F == 1215 && CUSOLVER_C_16BF == 1216 &&
               CUSOLVER_C_TF32 == 1217 && CUSOLVER_C_AP == 1218, "the complex precisions");
    cusolverPrecType_t p = CUSOLVER_C_64F;
    expect(sizeof(p) == sizeof(int), "int-sized, as CUDA's");
}

void test_cusolver_irs_refinement_enum() {
    check::expect(CUSOLVER_IRS_REFINE_NOT_SET == 1100 && CUSOLVER_IRS_REFINE_NONE == 1101 &&
                      CUSOLVER_IRS_REFINE_CLASSICAL == 1102 &&
                      CUSOLVER_IRS_REFINE_CLASSICAL_GMRES == 1103 &&
                      CUSOLVER_IRS_REFINE_GMRES == 1104 && CUSOLVER_IRS_REFINE_GMRES_GMRES == 1105 &&
                      CUSOLVER_IRS_REFINE_GMRES_NOPCOND == 1106 && CUSOLVER_PREC_DD == 1150 &&
                      CUSOLVER_PREC_SS == 1151 && CUSOLVER_PREC_SHT == 1152,
                  "the refinement solvers and precisions");
}

void CUDART_CB callback(hipStream_t, hipError_t, void* data) {
    *static_cast<int*>(data) += 1;
}

void test_callback_convention() {
    // Declared with the macro, the function is a HIP stream callback as it is.
    hipStreamCallback_t as_hip = callback;
    int calls_made = 0;
    as_hip(stream, hipSuccess, &calls_made);
    check::expect(calls_made == 1, "a CUDART_CB function is a hipStreamCallback_t");
}

struct GridParams {
    int values[256];
    int count;
};
// A host-device function stands in for the kernel (no GPU to launch on): the
// parameter is the const value it was, its address that of an object with
// the caller's contents.
__host__ __device__ int grid_sum(const __grid_constant__ GridParams p) {
    const GridParams* at = &p;
    int total = 0;
    for (int i = 0; i < at->count; ++i) total += at->values[i];
    return total;
}

void test_grid_constant() {
    static_assert(std::is_same<decltype(grid_sum), int(GridParams)>::value,
                  "__grid_constant__ leaves the parameter's type as it was");
    GridParams p{};
    p.count = 256;
    for (int i = 0; i < 256; ++i) p.values[i] = i * 3 - 100;
    check::expect(grid_sum(p) == 3 * 255 * 256 / 2 - 25600, "a __grid_constant__ parameter reads");
}

void test_persisting_l2() {
    using check::expect;
    int value = -1;
    expect(hipDeviceGetAttribute(&value, cudaDevAttrMaxPersistingL2CacheSize, 1) == hipSuccess &&
               value == 0, "no persisting L2");
    value = -1;
    expect(hipDeviceGetAttribute(&value, cudaDevAttrMaxAccessPolicyWindowSize, 0) == hipSuccess &&
               value == 0, "no access-policy window");
    expect(hipDeviceGetAttribute(&value, cudaDevAttrMaxPersistingL2CacheSize, 2) ==
               hipErrorInvalidDevice, "a device that does not exist");
    expect(hipDeviceSetLimit(cudaLimitPersistingL2CacheSize, 1 << 20) == hipSuccess,
           "the limit is accepted");
#if !defined(cudaDeviceSetLimit)
    expect(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 1 << 20) == hipSuccess,
           "the limit under CUDA's name (HIP 5.2 has no hipDeviceSetLimit)");
#endif
    size_t limit = 99;
    expect(hipDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize) == hipSuccess && limit == 0,
           "the limit reads back 0");
    expect(cudaCtxResetPersistingL2Cache() == hipSuccess, "reset");
}

#if HIP_VERSION >= 50700000
std::uint16_t bits_of(__hip_bfloat16 h) {
    std::uint16_t b;
    std::memcpy(&b, &h, sizeof b);
    return b;
}

enum class Mode { rn, rz, rd, ru };

// CUDA's rounding, from the values: the two bfloat16 neighbours of f and
// which one each mode picks (to nearest: ties to the even one).
std::uint16_t reference(float f, Mode mode) {
    if (std::isnan(f)) return 0x7fff;
    std::uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    const std::uint16_t toward_zero = static_cast<std::uint16_t>(x >> 16);
    const float tz = bf16_inputs::from_bits(static_cast<std::uint32_t>(toward_zero) << 16);
    if (tz == f) return toward_zero;
    const std::uint16_t away = toward_zero + 1;
    const double sign = f < 0 ? -1.0 : 1.0;
    const double az = (away & 0x7fff) == 0x7f80
        ? sign * std::ldexp(1.0, 128)  // past the largest: infinity's place
        : static_cast<double>(bf16_inputs::from_bits(static_cast<std::uint32_t>(away) << 16));
    switch (mode) {
        case Mode::rz: return toward_zero;
        case Mode::rd: return f > 0 ? toward_zero : away;
        case Mode::ru: return f > 0 ? away : toward_zero;
        case Mode::rn: {
            const double to_zero = std::fabs(static_cast<double>(f) - tz);
            const double to_away = std::fabs(az - static_cast<double>(f));
            if (to_zero != to_away) return to_zero < to_away ? toward_zero : away;
            return (toward_zero & 1u) == 0 ? toward_zero : away;
        }
    }
    return 0;
}

void test_float2bfloat16_rounding() {
    bf16_inputs::Digest digest;
    for (float f : bf16_inputs::all()) {
        const std::uint16_t got[4] = {bits_of(__float2bfloat16_rn(f)),
                                      bits_of(__float2bfloat16_rz(f)),
                                      bits_of(__float2bfloat16_rd(f)),
                                      bits_of(__float2bfloat16_ru(f))};
        const Mode modes[4] = {Mode::rn, Mode::rz, Mode::rd, Mode::ru};
        for (int m = 0; m < 4; ++m) {
            char what[64];
            std::snprintf(what, sizeof what, "mode %d of %a", m, static_cast<double>(f));
            check::expect(got[m] == reference(f, modes[m]), what);
            digest.add(got[m]);
        }
    }
    std::printf("digest rounding %016llx\n", static_cast<unsigned long long>(digest.value));
}

void test_bfloat162_from_floats() {
    bf16_inputs::Digest digest;
    for (float f : bf16_inputs::all()) {
        const __hip_bfloat162 both = __float2bfloat162_rn(f);
        const __hip_bfloat162 pair = __floats2bfloat162_rn(f, -f * 0.75f);
        std::uint16_t halves[4];
        std::memcpy(halves, &both, 4);
        std::memcpy(halves + 2, &pair, 4);
        check::expect(halves[0] == reference(f, Mode::rn) && halves[1] == halves[0],
                      "__float2bfloat162_rn");
        check::expect(halves[2] == halves[0] && halves[3] == reference(-f * 0.75f, Mode::rn),
                      "__floats2bfloat162_rn");
        for (std::uint16_t h : halves) digest.add(h);
    }
    std::printf("digest pairs %016llx\n", static_cast<unsigned long long>(digest.value));
}

void test_make_bfloat162() {
    for (std::uint32_t i = 0; i < 70000; i += 7) {
        const std::uint16_t x = static_cast<std::uint16_t>(i), y = static_cast<std::uint16_t>(~i);
        __hip_bfloat16 hx, hy;
        std::memcpy(&hx, &x, 2);
        std::memcpy(&hy, &y, 2);
        const __hip_bfloat162 pair = make_bfloat162(hx, hy);
        std::uint16_t halves[2];
        std::memcpy(halves, &pair, 4);
        check::expect(halves[0] == x && halves[1] == y, "make_bfloat162");
    }
}
#endif

}  // namespace

int main(int argc, char** argv) {
    return check::drive(argc, argv, {
        {"mem-location", test_mem_location},
        {"mem-location-numa", test_mem_location_numa},
#if HIP_VERSION < 70200000
        {"stream-access-policy", test_stream_access_policy},
#endif
        {"persisting-l2", test_persisting_l2},
        {"emulation-enums", test_emulation_enums},
        {"callback-convention", test_callback_convention},
        {"grid-constant", test_grid_constant},
        {"cusolver-precision-enum", test_cusolver_precision_enum},
        {"cusolver-irs-refinement-enum", test_cusolver_irs_refinement_enum},
#if HIP_VERSION >= 50700000
        {"float2bfloat16-rounding", test_float2bfloat16_rounding},
        {"bfloat162-from-floats", test_bfloat162_from_floats},
        {"make-bfloat162", test_make_bfloat162},
#endif
    });
}
