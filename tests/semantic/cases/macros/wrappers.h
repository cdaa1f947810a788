#pragma once
void cudaReportError(int code);  // the project's, named like CUDA
