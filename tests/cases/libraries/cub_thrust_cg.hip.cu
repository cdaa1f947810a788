// CUB becomes hipCUB (namespace and header), Thrust stays (rocThrust keeps
// its names), cooperative groups keep their namespace.
#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_fp16.h>

namespace cg = cooperative_groups;

__global__ void block_sum(float* x)
{
    cg::thread_block block = cg::this_thread_block();
    __half bias = __float2half(1.0f);
    using BlockReduce = hipcub::BlockReduce<float, 128>;
    __shared__ typename BlockReduce::TempStorage storage;
    float total = BlockReduce(storage).Sum(x[threadIdx.x]);
    block.sync();
    if (threadIdx.x == 0) x[0] = total + __half2float(bias);
}

float device_sum(float* d_in, float* d_out, int n)
{
    void* scratch = nullptr;
    size_t bytes = 0;
    hipcub::DeviceReduce::Sum(scratch, bytes, d_in, d_out, n);
    hipMalloc(&scratch, bytes);
    hipcub::DeviceReduce::Sum(scratch, bytes, d_in, d_out, n);
    hipFree(scratch);
    thrust::device_vector<float> v(d_in, d_in + n);
    return thrust::reduce(v.begin(), v.end());
}
