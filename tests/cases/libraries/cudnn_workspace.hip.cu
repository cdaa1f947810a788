// hipport-flags: --unsafe-fixes
// hipport-oracles: rocm-6.4 rocm-7.2
// cuDNN's workspace queries: MIOpen's take no algorithm and their first two
// descriptors the other way round; their size serves every algorithm, so it
// is at least cuDNN's (an unsafe fix for that reason).
#include <miopen/miopen.h>

size_t workspace(miopenHandle_t handle, miopenTensorDescriptor_t x, miopenTensorDescriptor_t w,
                 miopenConvolutionDescriptor_t conv, miopenTensorDescriptor_t y,
                 miopenConvFwdAlgorithm_t fwd)
{
    size_t forward = 0, data = 0, filter = 0;
    if (miopenConvolutionForwardGetWorkSpaceSize(handle, w, x, conv, y, &forward)
            != miopenStatusSuccess)
        return 0;
    miopenConvolutionBackwardDataGetWorkSpaceSize(handle, y, w, conv, x,
                                                 &data);
    miopenConvolutionBackwardWeightsGetWorkSpaceSize(handle, y, x, conv, w,
                                                   &filter);
    return forward > data ? (forward > filter ? forward : filter) : (data > filter ? data : filter);
}
