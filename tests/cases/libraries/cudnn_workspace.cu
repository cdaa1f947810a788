// hipport-flags: --unsafe-fixes
// hipport-oracles: rocm-6.4 rocm-7.2
// cuDNN's workspace queries: MIOpen's take no algorithm and their first two
// descriptors the other way round; their size serves every algorithm, so it
// is at least cuDNN's (an unsafe fix for that reason).
#include <cudnn.h>

size_t workspace(cudnnHandle_t handle, cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w,
                 cudnnConvolutionDescriptor_t conv, cudnnTensorDescriptor_t y,
                 cudnnConvolutionFwdAlgo_t fwd)
{
    size_t forward = 0, data = 0, filter = 0;
    if (cudnnGetConvolutionForwardWorkspaceSize(handle, x, w, conv, y, fwd, &forward)
            != CUDNN_STATUS_SUCCESS)
        return 0;
    cudnnGetConvolutionBackwardDataWorkspaceSize(handle, w, y, conv, x,
                                                 CUDNN_CONVOLUTION_BWD_DATA_ALGO_1, &data);
    cudnnGetConvolutionBackwardFilterWorkspaceSize(handle, x, y, conv, w,
                                                   CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0, &filter);
    return forward > data ? (forward > filter ? forward : filter) : (data > filter ? data : filter);
}
