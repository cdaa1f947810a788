#pragma once
int launch_Backend(int* device_out);
