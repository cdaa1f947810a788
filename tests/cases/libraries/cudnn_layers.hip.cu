// hipport-oracles: rocm-6.4 rocm-7.2
// cuDNN layers that MIOpen has with a rename or an exact argument rewrite:
// handle and stream, tensor and filter descriptors, convolution descriptor,
// activation, pooling, softmax, batch normalisation and dropout.
#include <miopen/miopen.h>
#include <hip/hip_runtime.h>

#define CHECK(call) do { miopenStatus_t s_ = (call); if (s_ != miopenStatusSuccess) return s_; } while (0)

miopenStatus_t describe(miopenTensorDescriptor_t x, miopenTensorDescriptor_t nhwc,
                       miopenTensorDescriptor_t w, miopenConvolutionDescriptor_t conv,
                       int n, int c, int h, int wd, int *out)
{
    CHECK(miopenSet4dTensorDescriptor(x, miopenFloat, n, c, h, wd));
    CHECK(miopenSet4dTensorDescriptorEx(nhwc, miopenHalf, n, c, h, wd, c * h * wd, 1, wd * c, c));
    CHECK(miopenSet4dTensorDescriptor(w, miopenFloat, 8, c, 3, 3));
    CHECK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 1, 1, 1, 1, 1, 1));
    CHECK(miopenSetConvolutionGroupCount(conv, 1));
    return miopenGetConvolutionForwardOutputDim(conv, x, w, &out[0], &out[1], &out[2], &out[3]);
}

miopenStatus_t layers(hipStream_t stream, miopenTensorDescriptor_t x, const float *in, float *out,
                     miopenTensorDescriptor_t bn, float *scale, float *bias, float *mean, float *var,
                     void *states, void *reserve)
{
    miopenHandle_t handle;
    CHECK(miopenCreate(&handle));
    CHECK(miopenSetStream(handle, stream));
    const float one = 1.0f, zero = 0.0f;

    miopenActivationDescriptor_t relu, clip;
    CHECK(miopenCreateActivationDescriptor(&relu));
    CHECK(miopenCreateActivationDescriptor(&clip));
    CHECK(miopenSetActivationDescriptor(relu, miopenActivationRELU, 0.0, 0.0, 0.0));
    CHECK(miopenSetActivationDescriptor(clip, miopenActivationCLIPPEDRELU,
                                       6.0, 0.0, 0.0));
    CHECK(miopenActivationForward(handle, relu, &one, x, in, &zero, x, out));

    miopenPoolingDescriptor_t pool;
    CHECK(miopenCreatePoolingDescriptor(&pool));
    CHECK(miopenSet2dPoolingDescriptor(pool, miopenPoolingMax, 2, 2, 0, 0, 2, 2));
    int dims[4];
    CHECK(miopenGetPoolingForwardOutputDim(pool, x, &dims[0], &dims[1], &dims[2], &dims[3]));
    CHECK(miopenPoolingForward(handle, pool, &one, x, in, &zero, x, out, false, NULL, 0));

    CHECK(miopenSoftmaxForward_V2(handle, &one, x, in, &zero, x, out, MIOPEN_SOFTMAX_ACCURATE, MIOPEN_SOFTMAX_MODE_CHANNEL));

    CHECK(miopenDeriveBNTensorDescriptor(bn, x, miopenBNSpatial));
    CHECK(miopenBatchNormalizationForwardInference(handle, miopenBNSpatial, (void*)&one, (void*)&zero,
                                                  x, in, x, out, bn, (void*)scale, (void*)bias, (void*)mean, (void*)var,
                                                  1e-5));

    miopenDropoutDescriptor_t drop;
    size_t states_size, reserve_size;
    CHECK(miopenCreateDropoutDescriptor(&drop));
    CHECK(miopenDropoutGetStatesSize(handle, &states_size));
    CHECK(miopenDropoutGetReserveSpaceSize(x, &reserve_size));
    CHECK(miopenSetDropoutDescriptor(drop, handle, 0.5f, states, states_size, 1234ULL, false, false, MIOPEN_RNG_PSEUDO_XORWOW));
    CHECK(miopenDropoutForward(handle, drop, x, x, in, x, out, reserve, reserve_size));

    miopenDestroyDropoutDescriptor(drop);
    miopenDestroyPoolingDescriptor(pool);
    miopenDestroyActivationDescriptor(clip);
    miopenDestroyActivationDescriptor(relu);
    return miopenDestroy(handle);
}
