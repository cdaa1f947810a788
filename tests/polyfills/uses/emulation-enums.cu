// A helper that sizes an emulation workspace from its settings, as the cuBLAS
// samples' shared header does: it names the types and values, calls nothing.
#include <cuda_runtime.h>
#include <library_types.h>

struct EmulationSettings {
    cudaEmulationStrategy strategy = CUDA_EMULATION_STRATEGY_DEFAULT;
    cudaEmulationStrategy_t fallback = CUDA_EMULATION_STRATEGY_PERFORMANT;
    cudaEmulationMantissaControl mantissa = CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC;
    cudaEmulationMantissaControl_t fixed = CUDA_EMULATION_MANTISSA_CONTROL_FIXED;
    cudaEmulationSpecialValuesSupport special = CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT;
    cudaEmulationSpecialValuesSupport_t none = CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NONE;
};

size_t workspace_bytes(const EmulationSettings& s, size_t m, size_t n) {
    size_t bytes = m * n;
    if (s.mantissa == CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC) bytes *= 2;
    if (s.strategy == CUDA_EMULATION_STRATEGY_EAGER) bytes += 64;
    if (s.special & (CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_INFINITY |
                     CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NAN)) bytes += 32;
    return bytes;
}
